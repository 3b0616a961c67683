import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { ValueFormatter } from '../content-dossier/value-text';
import { type ExportField, type ExportRow, exportDateTime, fieldText } from './data';

// The CSV export, streamed as it is read (spec doc 3 sections 4, 5 and 9): the columns dossier_id,
// the chosen fields, created_by, created_at, modified_by, modified_at; double quotes doubled (by
// csv-stringify), several values of a cell joined with '|', HTML stripped unless kept, dates as
// day/month/year hh:mm:ss. Records end with CRLF and line breaks inside a cell are LF, so a reader
// counts the rows done by the CRLFs (the dialog's progress). A UTF-8 BOM lets spreadsheets read it.

export const CSV_FIXED = {
  before: ['dossier_id'],
  after: ['created_by', 'created_at', 'modified_by', 'modified_at'],
};

const oneLineBreak = (text: string) => text.replace(/\r\n?/g, '\n');

export function csvStream(
  fields: ExportField[],
  formatter: ValueFormatter,
  pages: AsyncIterable<ExportRow[]>,
  keepHtml: boolean,
): Readable {
  async function* records() {
    yield [...CSV_FIXED.before, ...fields.map((f) => oneLineBreak(f.name)), ...CSV_FIXED.after];
    for await (const rows of pages)
      for (const row of rows)
        yield [
          String(row.id),
          ...fields.map((f, i) =>
            oneLineBreak(fieldText(formatter, f, row.values[i], { separator: '|', keepHtml })),
          ),
          row.created_by,
          exportDateTime(row.created_at),
          row.modified_by,
          exportDateTime(row.modified_at),
        ];
  }
  // an error while reading ends the download (the client sees it cut off), never half a row silently
  return pipeline(Readable.from(records()), stringify({ bom: true, record_delimiter: 'windows' }), () => {});
}
