import { type LogEntry, type LogPage, type LogQuery, makePager } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { DossierLogChange, UserRow } from '../../db/schema';
import { notFound } from '../../http-errors';
import { type VisibleItem, visibleItems } from '../../policy/display-item';
import { type EnvironmentAccess, requireEnvironmentAdmin } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { summaryOfAnyEntitySql } from '../../query/visible-summary';
import { DETAIL_VIEWS, EDIT_VIEWS, itemName } from '../content-dossier/items';
import { openDossier } from '../content-dossier/read-model';
import { valueFormatter } from '../content-dossier/value-text';

// Reading the change log (GET /api/log). The environment's whole log is for its admins; one dossier's
// log for whoever holds `dossierlog` on its entity. A change names the display item it was made
// through: a reader only gets the changes of items they may see (readableItems), with their values as
// the field type displays them to that reader.

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
  if (query.type?.length) filtered = filtered.where('l.type', 'in', query.type);
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
  const entityIds = [...new Set(rows.map((r) => r.def_dossier_id))];
  const readable = await readableItems(db, access, entityIds);
  // the values of every change shown, as their field types display them to this reader
  const shownChanges = rows.map((row) =>
    (row.changes as DossierLogChange[]).flatMap((change) => {
      const v = readable.get(row.def_dossier_id)?.itemOf(change);
      return v ? [{ change, v }] : [];
    }),
  );
  const formatter = await valueFormatter(
    db,
    access,
    [...readable.values()].flatMap((r) => r.items),
  );
  await formatter.prepare(
    shownChanges
      .flat()
      .flatMap(({ change, v }) => [
        [v, change.oldValue] as [VisibleItem, unknown],
        [v, change.newValue] as [VisibleItem, unknown],
      ]),
  );
  const results: LogEntry[] = rows.map((row, index) => ({
    id: Number(row.id),
    type: row.type,
    created_at: new Date(row.created_at).toISOString(),
    user: row.username === null ? null : { id: row.user_id, username: row.username },
    dossier: {
      id: Number(row.content_dossier_id),
      summary: String(row.summary ?? ''),
      def_dossier_id: row.def_dossier_id,
    },
    changes: shownChanges[index].map(({ change, v }) => ({
      name: change.defDisplayItemName,
      old_value: change.oldValue,
      new_value: change.newValue,
      old_text: formatter.text(v, change.oldValue),
      new_text: formatter.text(v, change.newValue),
    })),
  }));
  if (query.dossier !== undefined) {
    // the filter by user offers those who wrote in this dossier's log
    const users = await db
      .selectFrom('dossier_log')
      .select(['user_id', 'username'])
      .distinct()
      .where('environment_id', '=', environmentId)
      .where('content_dossier_id', '=', query.dossier)
      .where('user_id', 'is not', null)
      .orderBy('username')
      .limit(200)
      .execute();
    return {
      results,
      pager: makePager(query.page, query.limit, Number(total)),
      users: users.flatMap((u) =>
        u.user_id === null || u.username === null ? [] : [{ id: u.user_id, username: u.username }],
      ),
    };
  }
  return { results, pager: makePager(query.page, query.limit, Number(total)) };
}

/**
 * Per entity: the items whose changes the reader may see, and which of them a logged change was made
 * through. A change names its display item (since issue 18): it is shown when that item is visible to
 * the reader. An older change names only the item's name: it is shown when a visible item has that
 * name and no item hidden from the reader shares it.
 */
async function readableItems(db: Db, access: EnvironmentAccess, entityIds: number[]) {
  const readable = new Map<
    number,
    { items: VisibleItem[]; itemOf: (change: DossierLogChange) => VisibleItem | undefined }
  >();
  if (entityIds.length === 0) return readable;
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
    const byId = new Map(visible.map((v) => [v.item.id, v]));
    const hidden = new Set(
      all
        .filter((row) => row.def_dossier_id === entityId && !byId.has(row.id))
        .map((row) =>
          itemName({
            item: { id: row.id, translations: row.translations },
            dataField: row.field_name === null ? null : { name: row.field_name },
            link: row.link_name === null ? null : { name: row.link_name },
          }),
        ),
    );
    const byName = new Map<string, VisibleItem>();
    for (const v of visible) {
      const name = itemName(v);
      if (!hidden.has(name) && !byName.has(name)) byName.set(name, v);
    }
    readable.set(entityId, {
      items: visible,
      itemOf: (change) =>
        change.displayItemId === undefined
          ? byName.get(change.defDisplayItemName)
          : byId.get(change.displayItemId),
    });
  }
  return readable;
}
