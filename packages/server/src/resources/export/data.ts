import {
  dossierColumnValue,
  fieldSettingsOf,
  fieldTypeOf,
  getFieldType,
  isFieldTypeName,
  TIME_ZONE,
} from '@dossierbase/core';
import { sql } from 'kysely';
import { type Db, isPglite } from '../../db/database';
import type { VisibleItem } from '../../policy/display-item';
import { visibleItems } from '../../policy/display-item';
import { authorize, canExportAs, canShowDossiers, type ExportAction } from '../../policy/dossier';
import type { EntityScope } from '../../policy/entity';
import type { ListQuery } from '../../query/compile/page';
import { DETAIL_VIEWS, itemName } from '../content-dossier/items';
import { isBacklink } from '../content-dossier/links';
import type { DossierRow } from '../content-dossier/read-model';
import { namesOthers, type ValueFormatter, valueFormatter } from '../content-dossier/value-text';

// What an export holds (spec doc 3 sections 4, 5 and 9): per dossier its id, the chosen fields as the
// field types display them to the reader, and who created and changed it when. The fields are the
// items of the entity's dossier page the reader may see: an item hidden from their roles is never a
// column, so its value never leaves the server. Every kind (CSV, PDF, Word) is built from this.

export const EXPORT_KINDS = ['csv', 'pdf', 'docx'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

const PERMISSION: Record<ExportKind, ExportAction> = {
  csv: 'export_csv',
  pdf: 'export_pdf',
  docx: 'export_word',
};

/** 403 unless the user may show the entity's dossiers and export them as `kind`. */
export function authorizeExport(scope: EntityScope, kind: ExportKind) {
  authorize(canShowDossiers(scope) && canExportAs(scope, PERMISSION[kind]));
}

export interface ExportField {
  id: number;
  name: string;
  v: VisibleItem;
}

/**
 * The fields an export may hold: the dossier page's items the reader may see, one per data field or
 * link (the first placed), in page order. `chosen`: only these display item ids.
 */
export async function exportFields(db: Db, scope: EntityScope, chosen?: readonly number[]) {
  const items = await visibleItems(db, scope.access, scope.entity.id, DETAIL_VIEWS);
  const seen = new Set<string>();
  const fields: ExportField[] = [];
  for (const v of items) {
    const key = v.dataField ? `f${v.dataField.id}` : v.link ? `l${v.link.id}` : null;
    // an action button keeps no value
    if (!key || seen.has(key) || sourceOf(v)?.from === 'none') continue;
    seen.add(key);
    fields.push({ id: v.item.id, name: itemName(v), v });
  }
  if (!chosen?.length) return fields;
  const wanted = new Set(chosen);
  return fields.filter((f) => wanted.has(f.id));
}

/** Rows in a page of an export (the cursor's and the id pages'). */
export const EXPORT_PAGE = 1000;

/** One exported dossier: its id, a value per field, and who created and last changed it when. */
export interface ExportRow {
  id: number;
  summary: string;
  values: unknown[];
  created_by: string;
  /** day/month/year hh:mm:ss in the spec's time zone (spec doc 3 section 5) */
  created_at: string;
  modified_by: string;
  modified_at: string;
}

/** Where a field item's value lives: a column of the dossier (system fields) or its values. */
function sourceOf(v: VisibleItem) {
  const type = fieldTypeOf(v);
  return type && isFieldTypeName(type) ? getFieldType(type).source(fieldSettingsOf(v)) : null;
}

/** A dossier row as the export statement reads it (dates as ISO text, linked ids per link field). */
type ExportedDossier = Pick<DossierRow, 'id' | 'summary' | 'values' | 'created_by' | 'modified_by'> & {
  created_at: string;
  modified_at: string;
  creator: string | null;
  modifier: string | null;
  created_text: string;
  modified_text: string;
} & Record<`link_${number}`, string[] | null>;

const linkColumn = (f: ExportField) => `link_${f.id}` as const;

/** How to read a field item's value from an exported dossier, worked out once per export. */
function valueReader(f: ExportField): (row: ExportedDossier) => unknown {
  if (f.v.link) {
    const column = linkColumn(f);
    return (row) => (row[column] ?? []).map(Number);
  }
  const source = sourceOf(f.v);
  if (source?.from === 'column') return (row) => dossierColumnValue(row, source.column);
  const key = String(f.v.dataField?.id);
  return (row) => (row.values as Record<string, unknown>)[key] ?? null;
}

const iso = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** day/month/year hh:mm:ss in the platform's time zone, by PostgreSQL's time zone data */
const exportDateTimeSql = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone ${TIME_ZONE}, 'DD/MM/YYYY HH24:MI:SS')`;

/**
 * The export's columns of the dossiers a query reads (`content_dossier`): the row, its creator's and
 * last editor's names, its dates as the export writes them and, per link field, the ids of the
 * dossiers linked through it in rank order, so one statement reads all an export row needs.
 */
function withExportColumns(query: ListQuery, environmentId: number, fields: ExportField[]) {
  // the dates as ISO text only for fields that show them as their type does (system date fields)
  const isoDates = fields.some((f) => !f.v.link && sourceOf(f.v)?.from === 'column');
  const isoDate = (column: string) => (isoDates ? iso(column) : sql<string>`null`);
  let q = query
    .leftJoin('app_user as export_creator', 'export_creator.id', 'content_dossier.created_by')
    .leftJoin('app_user as export_modifier', 'export_modifier.id', 'content_dossier.modified_by')
    .select([
      'content_dossier.id',
      'content_dossier.summary',
      'content_dossier.values',
      'content_dossier.created_by',
      'content_dossier.modified_by',
      isoDate('content_dossier.created_at').as('created_at'),
      isoDate('content_dossier.modified_at').as('modified_at'),
      exportDateTimeSql('content_dossier.created_at').as('created_text'),
      exportDateTimeSql('content_dossier.modified_at').as('modified_text'),
      'export_creator.username as creator',
      'export_modifier.username as modifier',
    ]);
  for (const f of fields) {
    const link = f.v.link;
    if (!link) continue;
    const back = isBacklink(link);
    const [self, other] = back ? ['child_id', 'parent_id'] : ['parent_id', 'child_id'];
    q = q.select(
      sql<string[]>`(select array_agg(l.${sql.raw(other)} order by l.rank, l.id) from content_link l
        where l.environment_id = ${environmentId} and l.link_id = ${back ? link.back_link_id : link.id}
        and l.${sql.raw(self)} = content_dossier.id)`.as(linkColumn(f)),
    );
  }
  return q;
}

/** The export rows of dossiers read by withExportColumns, their users and linked dossiers prepared. */
async function toExportRows(fields: ExportField[], formatter: ValueFormatter, rows: ExportedDossier[]) {
  const readers = fields.map(valueReader);
  const result: ExportRow[] = [];
  for (const row of rows) {
    const values: unknown[] = [];
    for (const read of readers) values.push(read(row));
    result.push({
      id: Number(row.id),
      summary: row.summary,
      values,
      created_by: row.creator ?? '',
      created_at: row.created_text,
      modified_by: row.modifier ?? '',
      modified_at: row.modified_text,
    });
  }
  // only the values that name users or dossiers need their names loaded
  const naming = fields.flatMap((f, i) => (namesOthers(f.v) ? [i] : []));
  if (naming.length)
    await formatter.prepare(
      result.flatMap((r) => naming.map((i): [VisibleItem, unknown] => [fields[i].v, r.values[i]])),
    );
  return result;
}

/**
 * Reads the export rows of these dossiers of the entity (in the order of `ids`; ids of other
 * entities or environments are left out), with the users and linked dossiers their values name.
 */
export async function exportRows(
  db: Db,
  scope: EntityScope,
  fields: ExportField[],
  formatter: ValueFormatter,
  ids: readonly number[],
): Promise<ExportRow[]> {
  if (ids.length === 0) return [];
  const environmentId = scope.access.environment.id;
  const query = db
    .selectFrom('content_dossier')
    .where('content_dossier.environment_id', '=', environmentId)
    .where('content_dossier.def_dossier_id', '=', scope.entity.id)
    .where('content_dossier.id', 'in', [...ids]);
  const rows = (await withExportColumns(query, environmentId, fields).execute()) as ExportedDossier[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return toExportRows(
    fields,
    formatter,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/**
 * The export rows of a whole list in its order, a page at a time, read by one statement through a
 * cursor: reading the ordered ids first and then each page by its ids read every row twice, and the
 * statements per page cost more than the rows. The next page is read while the current one is
 * written. The total is counted by a statement of its own on another connection, at the same time:
 * a window count over the set would make PostgreSQL read the whole set before the first row, so the
 * database and the server could not work side by side. Null where the database cannot stream (PGlite).
 */
export async function listExportPages(
  db: Db,
  scope: EntityScope,
  fields: ExportField[],
  formatter: ValueFormatter,
  ordered: ListQuery,
  count: () => Promise<number>,
): Promise<{ total: number; pages: AsyncIterable<ExportRow[]> } | null> {
  if (await isPglite(db)) return null;
  const query = withExportColumns(ordered, scope.access.environment.id, fields);
  const rows = query.stream(EXPORT_PAGE)[Symbol.asyncIterator]() as AsyncIterator<ExportedDossier>;
  /** The next page of raw rows; an empty one at the end. */
  const readPage = async () => {
    const page: ExportedDossier[] = [];
    while (page.length < EXPORT_PAGE) {
      const next = await rows.next();
      if (next.done) break;
      page.push(next.value);
    }
    return page;
  };
  const counted = count();
  let first: ExportedDossier[];
  try {
    first = await readPage();
  } catch (error) {
    counted.catch(() => undefined);
    throw error;
  }
  let total: number;
  try {
    total = await counted;
  } catch (error) {
    await rows.return?.();
    throw error;
  }
  async function* pages() {
    let current: typeof first = first;
    try {
      while (current.length) {
        // the next page arrives from the database while this one is formatted and written
        const next = current.length === EXPORT_PAGE ? readPage() : Promise.resolve([]);
        next.catch(() => undefined); // a reader that stops early leaves it unread
        yield await toExportRows(fields, formatter, current);
        current = await next;
      }
    } finally {
      await rows.return?.(); // closes the cursor and gives its connection back
    }
  }
  return { total, pages: pages() };
}

export const exportFormatter = (db: Db, scope: EntityScope, fields: ExportField[]) =>
  valueFormatter(
    db,
    scope.access,
    fields.map((f) => f.v),
  );

/** The file name: the entity's id and name and a timestamp (spec doc 3 section 9). */
export function exportFileName(
  entity: { id: number; translations: readonly { name: string }[] },
  kind: ExportKind,
  now = new Date(),
) {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const name =
    (entity.translations[0]?.name ?? '').replace(/[^\p{L}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '') ||
    'export';
  return `${entity.id}_${name}_${stamp}.${kind}`;
}

/** A field's value as text for an export; several values joined by `separator`. */
export function fieldText(
  formatter: ValueFormatter,
  f: ExportField,
  value: unknown,
  options: { separator: string; keepHtml?: boolean },
): string {
  if (value === null || value === undefined) return '';
  // rich text keeps its (server-sanitised) markup only when asked
  if (options.keepHtml && typeof value === 'string' && fieldTypeOf(f.v) === 'textarea') return value;
  return Array.isArray(value)
    ? value.map((one) => formatter.text(f.v, one)).join(options.separator)
    : formatter.text(f.v, value);
}

/** One dossier as a document (PDF, Word): its title and a label and text per field and date. */
export interface DossierDocument {
  title: string;
  entity: string;
  rows: { label: string; text: string }[];
}

export function dossierDocument(
  scope: EntityScope,
  fields: ExportField[],
  formatter: ValueFormatter,
  row: ExportRow,
  labels: { createdBy: string; createdAt: string; modifiedBy: string; modifiedAt: string },
): DossierDocument {
  return {
    title: row.summary || `#${row.id}`,
    entity: scope.entity.translations[0]?.name ?? '',
    rows: [
      ...fields.map((f, i) => ({
        label: f.name,
        text: fieldText(formatter, f, row.values[i], { separator: ', ' }),
      })),
      { label: labels.createdBy, text: row.created_by },
      { label: labels.createdAt, text: row.created_at },
      { label: labels.modifiedBy, text: row.modified_by },
      { label: labels.modifiedAt, text: row.modified_at },
    ],
  };
}
