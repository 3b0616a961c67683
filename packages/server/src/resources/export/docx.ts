import type { DossierDocument } from './data';

// One dossier as a Word document (.docx, built by the docx library): the entity, the title as a
// heading, and a table of labels and values.

/** The document's bytes. docx is loaded on first use: it is about 10 MB of the server's memory. */
export async function dossierDocx(doc: DossierDocument): Promise<Buffer> {
  const { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } =
    await import('docx');
  const cell = (text: string, bold: boolean, width: number) =>
    new TableCell({
      width: { size: width, type: WidthType.PERCENTAGE },
      children: (text || '–')
        .split('\n')
        .map((line) => new Paragraph({ children: [new TextRun({ text: line, bold })] })),
    });
  const document = new Document({
    title: doc.title,
    subject: doc.entity,
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun({ text: doc.entity, color: '555555' })] }),
          new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(doc.title)] }),
          new Table({
            width: { size: 100, type: WidthType.PERCENTAGE },
            rows: doc.rows.map(
              (row) => new TableRow({ children: [cell(row.label, true, 32), cell(row.text, false, 68)] }),
            ),
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}
