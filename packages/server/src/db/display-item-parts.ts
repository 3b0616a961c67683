import type { Db } from './database';

/** The data fields and links that display items show, read in one round trip each (none when no item needs them). */
export async function displayItemParts(
  db: Db,
  items: { def_dossier_def_field_id: number | null; def_dossier_link_id: number | null }[],
) {
  const fieldIds = [...new Set(items.flatMap((item) => item.def_dossier_def_field_id ?? []))];
  const linkIds = [...new Set(items.flatMap((item) => item.def_dossier_link_id ?? []))];
  const [dataFields, links] = await Promise.all([
    fieldIds.length
      ? db.selectFrom('def_dossier_def_field').selectAll().where('id', 'in', fieldIds).execute()
      : Promise.resolve([]),
    linkIds.length
      ? db.selectFrom('def_dossier_link').selectAll().where('id', 'in', linkIds).execute()
      : Promise.resolve([]),
  ]);
  return { dataFields, links };
}
