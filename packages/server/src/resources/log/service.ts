import { type LogEntry, type LogPage, type LogQuery, makePager } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { DossierLogChange, UserRow } from '../../db/schema';
import { notFound } from '../../http-errors';
import { visibleItems } from '../../policy/display-item';
import { type EnvironmentAccess, requireEnvironmentAdmin } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { summaryOfAnyEntitySql } from '../../query/visible-summary';
import { DETAIL_VIEWS, EDIT_VIEWS, itemName } from '../content-dossier/items';
import { openDossier } from '../content-dossier/read-model';

// Reading the change log (GET /api/log). The environment's whole log is for its admins; one dossier's
// log for whoever holds `dossierlog` on its entity. A change names the display item it was made
// through: a reader only gets the changes of items they may see, and never one whose name an item
// hidden from them shares.

const LOGGED_VIEWS = [...new Set([...EDIT_VIEWS, ...DETAIL_VIEWS])];

/** Who may read what: the dossier's log with `dossierlog`, the environment's log as its admin. */
async function openLog(db: Db, user: UserRow, query: LogQuery): Promise<EnvironmentAccess> {
  if (query.dossier === undefined) return requireEnvironmentAdmin(db, user, query.environment);
  const { access } = await openDossier(db, user, query.dossier, 'dossierlog');
  // a dossier of another environment than the one named is unknown here
  if (access.environment.id !== query.environment) throw notFound();
  return access;
}

export async function readLog(db: Db, user: UserRow, query: LogQuery): Promise<LogPage> {
  const access = await openLog(db, user, query);
  const environmentId = access.environment.id;
  let filtered = db
    .selectFrom('dossier_log as l')
    .innerJoin('content_dossier as d', (join) =>
      join.onRef('d.environment_id', '=', 'l.environment_id').onRef('d.id', '=', 'l.content_dossier_id'),
    )
    .where('l.environment_id', '=', environmentId);
  if (query.dossier !== undefined) filtered = filtered.where('l.content_dossier_id', '=', query.dossier);
  if (query.entity !== undefined) filtered = filtered.where('l.def_dossier_id', '=', query.entity);
  if (query.user !== undefined) filtered = filtered.where('l.user_id', '=', query.user);
  if (query.type !== undefined) filtered = filtered.where('l.type', '=', query.type);
  if (query.from) filtered = filtered.where('l.created_at', '>=', new Date(`${query.from}T00:00:00Z`));
  if (query.to) filtered = filtered.where(sql<boolean>`l.created_at < cast(${query.to} as date) + 1`);

  const summaryKeys = await readerSummaryKeys(db, access);
  const [{ total }, rows] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    filtered
      .select([
        'l.id',
        'l.type',
        'l.created_at',
        'l.user_id',
        'l.username',
        'l.changes',
        'l.content_dossier_id',
        'd.def_dossier_id',
        summaryOfAnyEntitySql('d', summaryKeys).as('summary'),
      ])
      .orderBy('l.id', 'desc')
      .limit(query.limit)
      .offset(query.page * query.limit)
      .execute(),
  ]);
  const shownNames = await shownItemNames(db, access, [...new Set(rows.map((r) => r.def_dossier_id))]);
  const results: LogEntry[] = rows.map((row) => ({
    id: Number(row.id),
    type: row.type,
    created_at: new Date(row.created_at).toISOString(),
    user: row.username === null ? null : { id: row.user_id, username: row.username },
    dossier: {
      id: Number(row.content_dossier_id),
      summary: String(row.summary ?? ''),
      def_dossier_id: row.def_dossier_id,
    },
    changes: (row.changes as DossierLogChange[])
      .filter((change) => shownNames.get(row.def_dossier_id)?.has(change.defDisplayItemName))
      .map((change) => ({
        name: change.defDisplayItemName,
        old_value: change.oldValue,
        new_value: change.newValue,
      })),
  }));
  return { results, pager: makePager(query.page, query.limit, Number(total)) };
}

/**
 * Per entity: the item names whose changes the reader may see, those of the items visible to them
 * that no hidden item shares.
 */
async function shownItemNames(
  db: Db,
  access: EnvironmentAccess,
  entityIds: number[],
): Promise<Map<number, Set<string>>> {
  const shown = new Map<number, Set<string>>();
  if (entityIds.length === 0) return shown;
  const all = await db
    .selectFrom('display_item as i')
    .leftJoin('def_dossier_def_field as f', 'f.id', 'i.def_dossier_def_field_id')
    .leftJoin('def_dossier_link as k', 'k.id', 'i.def_dossier_link_id')
    .select(['i.id', 'i.def_dossier_id', 'i.translations', 'f.name as field_name', 'k.name as link_name'])
    .where('i.environment_id', '=', access.environment.id)
    .where('i.def_dossier_id', 'in', entityIds)
    .where('i.view', 'in', LOGGED_VIEWS)
    .execute();
  for (const entityId of entityIds) {
    const visible = await visibleItems(db, access, entityId, LOGGED_VIEWS);
    const visibleIds = new Set(visible.map((v) => v.item.id));
    const hidden = new Set(
      all
        .filter((row) => row.def_dossier_id === entityId && !visibleIds.has(row.id))
        .map((row) =>
          itemName({
            item: { id: row.id, translations: row.translations },
            dataField: row.field_name === null ? null : { name: row.field_name },
            link: row.link_name === null ? null : { name: row.link_name },
          }),
        ),
    );
    shown.set(entityId, new Set(visible.map(itemName).filter((name) => !hidden.has(name))));
  }
  return shown;
}
