import {
  dossierColumnValue,
  fieldSettingsOf,
  fieldTypeOf,
  getFieldType,
  isFieldTypeName,
  zonedParts,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { LinkRow, VisibleItem } from '../../policy/display-item';
import { visibleItems } from '../../policy/display-item';
import { authorize, canExportAs, canShowDossiers, type ExportAction } from '../../policy/dossier';
import type { EntityScope } from '../../policy/entity';
import { DETAIL_VIEWS, itemName } from '../content-dossier/items';
import { isBacklink } from '../content-dossier/links';
import type { DossierRow } from '../content-dossier/read-model';
import { type ValueFormatter, valueFormatter } from '../content-dossier/value-text';

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

/** The dossiers linked to each of `ids` through `link`, in rank order (one statement). */
async function linkedIdsOf(db: Db, environmentId: number, ids: number[], link: LinkRow) {
  const back = isBacklink(link);
  const rows = ids.length
    ? await db
        .selectFrom('content_link')
        .select(['parent_id', 'child_id'])
        .where('environment_id', '=', environmentId)
        .where('link_id', '=', back ? (link.back_link_id as number) : link.id)
        .where(back ? 'child_id' : 'parent_id', 'in', ids)
        .orderBy('rank')
        .orderBy('id')
        .execute()
    : [];
  const linked = new Map<number, number[]>();
  for (const row of rows) {
    const [self, other] = back ? [row.child_id, row.parent_id] : [row.parent_id, row.child_id];
    const list = linked.get(Number(self)) ?? [];
    list.push(Number(other));
    linked.set(Number(self), list);
  }
  return linked;
}

/** One exported dossier: its id, a value per field, and its creation and last change. */
export interface ExportRow {
  id: number;
  summary: string;
  values: unknown[];
  created_by: string;
  created_at: Date;
  modified_by: string;
  modified_at: Date;
}

/** Where a field item's value lives: a column of the dossier (system fields) or its values. */
function sourceOf(v: VisibleItem) {
  const type = fieldTypeOf(v);
  return type && isFieldTypeName(type) ? getFieldType(type).source(fieldSettingsOf(v)) : null;
}

/** How to read a field item's stored value from a dossier row, worked out once per export. */
function valueReader(v: VisibleItem): (row: DossierRow) => unknown {
  const source = sourceOf(v);
  if (source?.from === 'column') return (row) => dossierColumnValue(row, source.column);
  const key = String(v.dataField?.id);
  return (row) => (row.values as Record<string, unknown>)[key] ?? null;
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
  const rows = await db
    .selectFrom('content_dossier as d')
    .leftJoin('app_user as c', 'c.id', 'd.created_by')
    .leftJoin('app_user as m', 'm.id', 'd.modified_by')
    .selectAll('d')
    .select(['c.username as creator', 'm.username as modifier'])
    .where('d.environment_id', '=', environmentId)
    .where('d.def_dossier_id', '=', scope.entity.id)
    .where('d.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const found = ids.filter((id) => byId.has(id));
  const links = new Map<number, Map<number, number[]>>();
  for (const f of fields)
    if (f.v.link) links.set(f.id, await linkedIdsOf(db, environmentId, found, f.v.link));
  const readers = fields.map((f) => {
    const linked = links.get(f.id);
    return linked ? (row: DossierRow) => linked.get(Number(row.id)) ?? [] : valueReader(f.v);
  });
  const result: ExportRow[] = [];
  for (const id of found) {
    const row = byId.get(id) as (typeof rows)[number];
    const values: unknown[] = [];
    for (const read of readers) values.push(read(row));
    result.push({
      id,
      summary: row.summary,
      values,
      created_by: row.creator ?? '',
      created_at: new Date(row.created_at),
      modified_by: row.modifier ?? '',
      modified_at: new Date(row.modified_at),
    });
  }
  await formatter.prepare(
    result.flatMap((r) => fields.map((f, i): [VisibleItem, unknown] => [f.v, r.values[i]])),
  );
  return result;
}

export const exportFormatter = (db: Db, scope: EntityScope, fields: ExportField[]) =>
  valueFormatter(
    db,
    scope.access,
    fields.map((f) => f.v),
  );

/** day/month/year hh:mm:ss in the spec's time zone (spec doc 3 section 5). */
export function exportDateTime(date: Date): string {
  const { year, month, day, hour, minute, second } = zonedParts(date);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(day)}/${pad(month)}/${year} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

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
      { label: labels.createdAt, text: exportDateTime(row.created_at) },
      { label: labels.modifiedBy, text: row.modified_by },
      { label: labels.modifiedAt, text: exportDateTime(row.modified_at) },
    ],
  };
}
