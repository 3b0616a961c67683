import { isDeepStrictEqual } from 'node:util';
import { DOSSIER_MESSAGES, fieldSettingsOf, valueRefsOf } from '@dossierbase/core';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import { lastOfTransaction } from '../../db/prepared-statements';
import type { ContentDossierTable, DossierLogChange } from '../../db/schema';
import { badRequest } from '../../http-errors';
import { type LinkRow, type VisibleItem, visibleItems } from '../../policy/display-item';
import {
  authorize,
  canArchiveDossier,
  canCreateDossier,
  canDeleteDossier,
  canEditDossiers,
  isReadOnly,
} from '../../policy/dossier';
import type { EntityScope } from '../../policy/entity';
import {
  announceDossiers,
  announceEmbedded,
  announceLinks,
  linkDisplayItems,
} from '../../realtime/dossier-events';
import { checkDuplicates, checkRequired } from './checks';
import { computeServerValues } from './computed-values';
import { createdChanges, logRow, updatedChanges, writeLog } from './dossier-log';
import { EDIT_VIEWS, itemMap } from './items';
import { appendLink, childrenThrough, embeddedParent, linkedIds, writeLinks } from './links';
import { normaliseValues } from './normalise';
import type { DossierRow } from './read-model';
import { noticeSubscribers, pushNotices } from './subscription-notices';
import { computeSummary, hasEmptyText, summaryConfig, withIdWhenEmpty } from './summary';

// The writes of a dossier: create, update, archive and delete, each in one transaction with its log.
// The steps live beside this file: normalise.ts (submitted values), checks.ts (required, unique),
// computed-values.ts, links.ts, summary.ts, dossier-log.ts; the permission gates in policy/dossier.ts.

export const CONSTRAINT_MESSAGE = 'This dossier cannot be deleted while other dossiers are linked to it';

export async function createDossier(
  db: Db,
  scope: EntityScope,
  input: {
    values: Record<string, unknown>;
    ignore_existing: boolean;
    embedded?: number;
    linkId?: number;
    /** the row entry form of an embedded list: its items are those of the row_input view */
    customView?: 'row_input';
  },
): Promise<number> {
  authorize(canCreateDossier(scope));
  const embedded = await embeddedParent(db, scope, input);
  const items = await visibleItems(
    db,
    scope.access,
    scope.entity.id,
    input.customView ? [input.customView] : EDIT_VIEWS,
  );
  const normalised = await normaliseValues(db, scope, itemMap(items), input.values);
  const links = new Map(normalised.links.map((l) => [l.item.item.id, l.ids]));
  checkRequired(scope.entity, items, items, normalised.values, links, normalised.errors);
  if (Object.keys(normalised.errors).length) throw badRequest(normalised.errors);
  if (!input.ignore_existing) await checkDuplicates(db, scope, items, normalised.values, null);

  const id = await db
    .transaction()
    .execute((trx) =>
      storeCreated(
        db,
        trx,
        scope,
        { ...normalised.values },
        normalised.links,
        embedded,
        (values, links) => createdChanges(items, input.values, { values, links }),
        { endsTransaction: true },
      ),
    );
  await announceCreated(db, scope, [id], normalised.links, embedded);
  return id;
}

/**
 * The embedded list's limit_embedded_link when the create call does not write that link itself (its
 * form, pre-filled with the parent, did not hold it): the server links the parent through it.
 */
function limitLinkToWrite(
  embedded: { limit: LinkRow | null } | null,
  linkWrites: { item: VisibleItem }[],
): LinkRow | null {
  const limit = embedded?.limit;
  if (!limit) return null;
  return linkWrites.some((l) => l.item.link?.id === limit.id) ? null : limit;
}

/** After the commit of new dossiers: created, and the embedded list's display item update. */
export async function announceCreated(
  db: Db,
  scope: EntityScope,
  ids: number[],
  linkWrites: { item: VisibleItem; ids: number[] }[],
  embedded: { link: LinkRow; parentId: number; limit: LinkRow | null } | null,
) {
  const environmentId = scope.access.environment.id;
  const sender = scope.access.user.id;
  const links = embedded ? [{ linkId: embedded.link.id, parentId: embedded.parentId }] : undefined;
  announceDossiers(
    db,
    environmentId,
    'created',
    ids.map((id) => ({ id, entityId: scope.entity.id })),
    sender,
    links ? { links } : {},
  );
  const written = linkWrites.flatMap((l) => (l.item.link && l.ids.length ? [l.item.link.id] : []));
  const limit = limitLinkToWrite(embedded, linkWrites);
  if (limit) written.push(limit.id);
  for (const id of ids) announceLinks(db, environmentId, id, written, sender);
  if (embedded) {
    // after the commit a failed read must not turn the saved dossier into an error answer
    const displayItems = await linkDisplayItems(db, environmentId, embedded.link.id).catch(() => []);
    announceEmbedded(db, environmentId, ids, sender, {
      linkId: embedded.link.id,
      parentId: embedded.parentId,
      displayItems,
    });
  }
}

/**
 * The writes of a new dossier in `trx`: its values (with the server-computed ones), summary, the
 * links that were sent, the link from an embedded parent, and its create log entry.
 */
export async function storeCreated(
  db: Db,
  trx: Db,
  scope: EntityScope,
  values: Record<string, unknown>,
  linkWrites: { item: VisibleItem; ids: number[] }[],
  embedded: Awaited<ReturnType<typeof embeddedParent>>,
  changes: (values: Record<string, unknown>, links: Map<number, number[]>) => DossierLogChange[],
  /** endsTransaction: nothing runs in the transaction after it (its last statement goes with the commit) */
  options: { endsTransaction?: boolean } = {},
): Promise<number> {
  await computeServerValues(db, trx, scope, values, true);
  const stored = computeSummary(await summaryConfig(db, scope.access, scope.entity.id), values);
  const dossier = {
    environment_id: scope.access.environment.id,
    def_dossier_id: scope.entity.id,
    values,
    summary: stored.summary,
    summaries: stored.summaries,
    created_by: scope.access.user.id,
    modified_by: scope.access.user.id,
  };
  const links = new Map(linkWrites.map((l) => [l.item.item.id, l.ids]));
  if (!hasEmptyText(stored) && !embedded && !linkWrites.some((l) => l.item.link))
    // nothing to write with the new id but its log entry: both in one statement, a round trip fewer
    return insertWithCreateLog(trx, scope, dossier, changes(values, links), options.endsTransaction);
  const row = await trx
    .insertInto('content_dossier')
    .values(dossier)
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  // a dossier without summary values is summarised by its id, known only now
  if (hasEmptyText(stored)) {
    const withId = withIdWhenEmpty(stored, id);
    await trx
      .updateTable('content_dossier')
      .set({ summary: withId.summary, summaries: withId.summaries })
      .where('id', '=', id)
      .where('environment_id', '=', scope.access.environment.id)
      .execute();
  }
  for (const l of linkWrites) {
    if (l.item.link) await writeLinks(trx, scope.access.environment.id, id, l.item.link, l.ids);
  }
  if (embedded) await appendLink(trx, scope.access.environment.id, embedded.parentId, embedded.link, id);
  const limit = limitLinkToWrite(embedded, linkWrites);
  // limit_embedded_link: the new child holds the parent through that link too, or it would not be listed
  if (embedded && limit) await appendLink(trx, scope.access.environment.id, id, limit, embedded.parentId);
  await writeLog(trx, scope.access, { id, entityId: scope.entity.id }, 'create', changes(values, links));
  return id;
}

/** A new dossier and its create log entry, in one statement; answers its id. */
async function insertWithCreateLog(
  trx: Db,
  scope: EntityScope,
  dossier: Insertable<ContentDossierTable>,
  changes: DossierLogChange[],
  endsTransaction = false,
): Promise<number> {
  const insert = trx
    .with('created', (db) => db.insertInto('content_dossier').values(dossier).returning('id'))
    .insertInto('dossier_log')
    .values((eb) =>
      logRow(
        scope.access,
        { id: eb.selectFrom('created').select('id'), entityId: scope.entity.id },
        'create',
        changes,
      ),
    )
    .returning('content_dossier_id');
  const row = await (endsTransaction ? lastOfTransaction(insert) : insert).executeTakeFirstOrThrow();
  return Number(row.content_dossier_id);
}

export async function updateDossier(
  db: Db,
  scope: EntityScope,
  dossier: DossierRow,
  input: {
    values: Record<string, unknown>;
    ignore_existing: boolean;
    displayPosition?: number;
    /** only this display item is checked and written (single-item calls such as contentlist) */
    onlyItem?: number;
    /** only these display items are checked and written (the gantt's start and end) */
    onlyItems?: readonly number[];
  },
) {
  authorize(canEditDossiers(scope));
  if (isReadOnly(dossier)) throw badRequest({ dossier: DOSSIER_MESSAGES.archived });
  const allItems = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const items = allItems.filter(
    (v) =>
      (input.displayPosition === undefined || v.item.display_position_id === input.displayPosition) &&
      (input.onlyItem === undefined || v.item.id === input.onlyItem) &&
      (input.onlyItems === undefined || input.onlyItems.includes(v.item.id)),
  );
  const oldValues = dossier.values as Record<string, unknown>;
  const normalised = await normaliseValues(db, scope, itemMap(items), input.values, oldValues);
  const values = { ...oldValues, ...normalised.values };
  const links = new Map<number, number[]>();
  const oldLinks = new Map<number, number[]>();
  for (const v of allItems) {
    if (!v.link) continue;
    const current = await linkedIds(db, scope.access.environment.id, Number(dossier.id), v.link);
    oldLinks.set(v.item.id, current);
    links.set(v.item.id, current);
  }
  for (const l of normalised.links) links.set(l.item.item.id, l.ids);
  checkRequired(scope.entity, items, allItems, values, links, normalised.errors);
  if (Object.keys(normalised.errors).length) throw badRequest(normalised.errors);
  if (!input.ignore_existing) {
    // Only a value the user changes can become a duplicate: an unchanged one was accepted before.
    const changed = Object.fromEntries(
      Object.entries(normalised.values).filter(([key, value]) => !isDeepStrictEqual(oldValues[key], value)),
    );
    await checkDuplicates(db, scope, items, changed, Number(dossier.id));
  }

  const notified = await db.transaction().execute(async (trx) => {
    const id = Number(dossier.id);
    await storeUpdate(db, trx, scope, id, values, normalised.links);
    await writeLog(
      trx,
      scope.access,
      { id, entityId: scope.entity.id },
      'change',
      updatedChanges(items, input.values, { values: oldValues, links: oldLinks }, { values, links }),
    );
    return noticeSubscribers(trx, scope.access, id, 'change');
  });
  await pushNotices(db, scope.access.environment.id, notified);
  announceChanged(db, scope, [Number(dossier.id)], normalised.links);
}

/** After the commit of changed dossiers: changed, and the links written through their link fields. */
export function announceChanged(
  db: Db,
  scope: EntityScope,
  ids: number[],
  linkWrites: { item: VisibleItem; ids: number[] }[],
) {
  const environmentId = scope.access.environment.id;
  const sender = scope.access.user.id;
  const written = ids.map((id) => ({ id, entityId: scope.entity.id }));
  announceDossiers(db, environmentId, 'changed', written, sender);
  const links = linkWrites.flatMap((l) => (l.item.link ? [l.item.link.id] : []));
  for (const id of ids) announceLinks(db, environmentId, id, links, sender);
}

/**
 * The writes of an update of one dossier in `trx`: its values (with the server-computed ones, which
 * are filled into `values`), summary and the links that were sent. The caller writes the log.
 */
export async function storeUpdate(
  db: Db,
  trx: Db,
  scope: EntityScope,
  id: number,
  values: Record<string, unknown>,
  links: { item: VisibleItem; ids: number[] }[],
) {
  await computeServerValues(db, trx, scope, values, false);
  const config = await summaryConfig(db, scope.access, scope.entity.id);
  const stored = withIdWhenEmpty(computeSummary(config, values), id);
  await trx
    .updateTable('content_dossier')
    .set({
      values,
      summary: stored.summary,
      summaries: stored.summaries,
      modified_by: scope.access.user.id,
      modified_at: new Date(),
    })
    .where('id', '=', id)
    .where('environment_id', '=', scope.access.environment.id)
    .execute();
  for (const l of links) {
    if (l.item.link) await writeLinks(trx, scope.access.environment.id, id, l.item.link, l.ids);
  }
}

/**
 * Archives or dearchives a dossier. Archiving also archives the dossiers it links to through the
 * links of its entity whose archive cascade rule is 'archive', level by level, when their entity is
 * archivable (a dossier of any other could never be dearchived). The spec names no cascade for
 * dearchive: the children stay archived.
 */
export async function setArchived(db: Db, scope: EntityScope, dossier: DossierRow, archived: boolean) {
  authorize(canArchiveDossier(scope));
  const environmentId = scope.access.environment.id;
  const notified: number[] = [];
  const archivedNow: { id: number; entityId: number }[] = [];
  await db.transaction().execute(async (trx) => {
    const write = async (id: number, entityId: number, was: boolean) => {
      archivedNow.push({ id, entityId });
      await trx
        .updateTable('content_dossier')
        .set({ archived, modified_by: scope.access.user.id, modified_at: new Date() })
        .where('id', '=', id)
        .where('environment_id', '=', environmentId)
        .execute();
      await writeLog(trx, scope.access, { id, entityId }, 'archive', [
        { defDisplayItemName: 'archived', oldValue: was, newValue: archived },
      ]);
      notified.push(...(await noticeSubscribers(trx, scope.access, id, archived ? 'archive' : 'change')));
    };
    await write(Number(dossier.id), dossier.def_dossier_id, dossier.archived);
    if (!archived) return;
    const seen = new Set([Number(dossier.id)]);
    const cascade = async (id: number, entityId: number) => {
      const archiving = (link: LinkRow) => link.archive_cascade_rule === 'archive';
      for (const { children } of await childrenThrough(trx, environmentId, entityId, id, archiving)) {
        for (const child of children) {
          if (seen.has(child.id)) continue;
          seen.add(child.id);
          if (!(await isArchivable(trx, environmentId, child.entityId))) continue;
          const row = await trx
            .selectFrom('content_dossier')
            .select('archived')
            .where('id', '=', child.id)
            .where('environment_id', '=', environmentId)
            .executeTakeFirstOrThrow();
          if (!row.archived) await write(child.id, child.entityId, false);
          await cascade(child.id, child.entityId);
        }
      }
    };
    await cascade(Number(dossier.id), dossier.def_dossier_id);
  });
  await pushNotices(db, environmentId, notified);
  announceDossiers(db, environmentId, 'archived', archivedNow, scope.access.user.id, { archived });
}

async function isArchivable(db: Db, environmentId: number, entityId: number) {
  const entity = await db
    .selectFrom('def_dossier')
    .select('archivable')
    .where('id', '=', entityId)
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  return entity?.archivable === true;
}

/** Deletes a dossier honouring the cascade rule of the links of its entity (forward links only). */
export async function deleteDossier(db: Db, scope: EntityScope, dossier: DossierRow) {
  authorize(canDeleteDossier(scope));
  const environmentId = scope.access.environment.id;
  const notified: number[] = [];
  const deleted: { id: number; entityId: number }[] = [];
  await db.transaction().execute(async (trx) => {
    const seen = new Set<number>();
    const remove = async (id: number, entityId: number) => {
      if (seen.has(id)) return;
      seen.add(id);
      const cascading = (link: LinkRow) => link.cascade_rule !== 'maintain';
      for (const { link, children } of await childrenThrough(trx, environmentId, entityId, id, cascading)) {
        if (link.cascade_rule === 'constraint') throw badRequest({ dossier: CONSTRAINT_MESSAGE });
        for (const child of children) await remove(child.id, child.entityId);
      }
      await writeLog(trx, scope.access, { id, entityId }, 'delete', []);
      // before the deletion takes the dossier's subscriptions with it
      notified.push(...(await noticeSubscribers(trx, scope.access, id, 'delete')));
      await trx
        .deleteFrom('content_dossier')
        .where('id', '=', id)
        .where('environment_id', '=', environmentId)
        .execute();
      deleted.push({ id, entityId });
    };
    await remove(Number(dossier.id), dossier.def_dossier_id);
  });
  await pushNotices(db, environmentId, notified);
  announceDossiers(db, environmentId, 'deleted', deleted, scope.access.user.id);
}

/** The list field behind a display item of an edit view the user may see; 400 otherwise. */
async function listItem(db: Db, scope: EntityScope, displayItemId: number) {
  const items = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const v = items.find((i) => i.item.id === displayItemId);
  if (!v?.dataField || valueRefsOf(v.field?.type) !== 'options')
    throw badRequest({ [String(displayItemId)]: DOSSIER_MESSAGES.unknownItem });
  return { v, multiple: fieldSettingsOf(v).multiple === true };
}

/** POST set / add and DELETE remove of list options on one list item; written as an update. */
export async function changeListValue(
  db: Db,
  scope: EntityScope,
  dossier: DossierRow,
  displayItemId: number,
  change: { set?: number[]; add?: number[]; remove?: number },
) {
  const { v, multiple } = await listItem(db, scope, displayItemId);
  const current = (dossier.values as Record<string, unknown>)[String(v.dataField?.id)];
  const currentIds =
    current === null || current === undefined ? [] : Array.isArray(current) ? current : [current];
  let ids: unknown[];
  if (change.set) ids = change.set;
  else if (change.add) ids = [...currentIds, ...change.add.filter((id) => !currentIds.includes(id))];
  else ids = currentIds.filter((id) => id !== change.remove);
  const value = multiple ? ids : ids.length <= 1 ? (ids[0] ?? null) : ids;
  await updateDossier(db, scope, dossier, {
    values: { [String(displayItemId)]: value },
    ignore_existing: true,
    onlyItem: displayItemId,
  });
}
