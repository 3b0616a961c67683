import {
  DOSSIER_MESSAGES,
  isServerComputed,
  MERGE_MESSAGES,
  type MergeAction,
  type MergeLinkChoice,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { type LinkRow, type VisibleItem, visibleItems } from '../../policy/display-item';
import { authorize, canArchiveDossier, canDeleteDossier, holds } from '../../policy/dossier';
import { openEntityScope } from '../../policy/entity';
import { announceDossiers } from '../../realtime/dossier-events';
import { checkRequired } from './checks';
import { computeServerValues } from './computed-values';
import { writeLog } from './dossier-log';
import { DETAIL_VIEWS, EDIT_VIEWS } from './items';
import { forwardLinkId, isBacklink } from './links';
import { noticeSubscribers, pushNotices } from './subscription-notices';
import { computeSummary, hasEmptyText, summaryConfig, withIdWhenEmpty } from './summary';

// POST /api/contentdossier/merge: two dossiers of one entity become a new one. Each value comes from
// the side the user chose (a value of an item hidden from them, or not chosen, from the first side
// that has one); auto-increment numbers are new and calc fields are recalculated. The links of both
// (either direction) go to the new dossier as chosen per link item: default (all of both), left,
// right, or the dossiers selected; a link no item of the user shows keeps all of both. Then the old
// two are kept, archived or deleted. All in one transaction, each dossier logged.

export type MergeChoice =
  | { id: number; use: 'left' | 'right' }
  | { link_id: number; use_from: MergeLinkChoice; ids: number[] };

/** A link item's group: the forward link's rows, with the dossier as parent ('out') or child ('in'). */
const linkKey = (link: LinkRow) => `${isBacklink(link) ? 'in' : 'out'}:${forwardLinkId(link)}`;

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

interface LinkGroup {
  linkId: number;
  /** the merged dossiers are the parents ('out') or the children ('in') of the rows */
  direction: 'out' | 'in';
  left: number[];
  right: number[];
}

export async function mergeDossiers(
  db: Db,
  user: UserRow,
  environmentId: number,
  input: { dossiers: { action: MergeAction; ids: [number, number] }; mergeDossier: MergeChoice[] },
): Promise<number> {
  const [leftId, rightId] = input.dossiers.ids;
  if (leftId === rightId) throw badRequest({ dossiers: MERGE_MESSAGES.two });
  const rows = await db
    .selectFrom('content_dossier')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('id', 'in', [leftId, rightId])
    .execute();
  const left = rows.find((r) => Number(r.id) === leftId);
  const right = rows.find((r) => Number(r.id) === rightId);
  if (!left || !right) throw notFound();
  const scope = await openEntityScope(db, user, left.def_dossier_id, environmentId);
  authorize(holds(scope, 'show') && holds(scope, 'merge'));
  if (right.def_dossier_id !== left.def_dossier_id) throw badRequest({ dossiers: MERGE_MESSAGES.sameEntity });
  const action = input.dossiers.action;
  if (action === 'archive') authorize(canArchiveDossier(scope));
  if (action === 'delete') authorize(canDeleteDossier(scope));

  const items = await visibleItems(db, scope.access, scope.entity.id, DETAIL_VIEWS);
  const fieldChoices = new Map<number, 'left' | 'right'>();
  const linkChoices = new Map<number, { use_from: MergeLinkChoice; ids: number[] }>();
  for (const choice of input.mergeDossier) {
    if ('id' in choice) fieldChoices.set(choice.id, choice.use);
    else linkChoices.set(choice.link_id, { use_from: choice.use_from, ids: choice.ids });
  }
  const byId = new Map(items.map((v) => [v.item.id, v]));
  const errors: Record<string, string> = {};
  for (const id of [...fieldChoices.keys()])
    if (!byId.get(id)?.dataField) errors[String(id)] = DOSSIER_MESSAGES.unknownItem;
  for (const id of [...linkChoices.keys()])
    if (!byId.get(id)?.link) errors[String(id)] = DOSSIER_MESSAGES.unknownItem;
  if (Object.keys(errors).length) throw badRequest(errors);

  // values: the first side that has one, then the sides chosen for the items the user sees
  const leftValues = left.values as Record<string, unknown>;
  const rightValues = right.values as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(leftValues), ...Object.keys(rightValues)]))
    values[key] = isEmpty(leftValues[key]) ? rightValues[key] : leftValues[key];
  for (const [itemId, side] of fieldChoices) {
    const v = byId.get(itemId) as VisibleItem;
    if (!v.dataField || (v.field && isServerComputed(v.field.type))) continue;
    const key = String(v.dataField.id);
    values[key] = (side === 'left' ? leftValues : rightValues)[key] ?? null;
  }

  // links of both, per link and direction
  const linkRows = await db
    .selectFrom('content_link')
    .select(['link_id', 'parent_id', 'child_id'])
    .where('environment_id', '=', environmentId)
    .where((eb) => eb.or([eb('parent_id', 'in', [leftId, rightId]), eb('child_id', 'in', [leftId, rightId])]))
    .orderBy('rank')
    .orderBy('id')
    .execute();
  const groups = new Map<string, LinkGroup>();
  const groupOf = (linkId: number, direction: 'out' | 'in') => {
    const key = `${direction}:${linkId}`;
    let group = groups.get(key);
    if (!group) {
      group = { linkId, direction, left: [], right: [] };
      groups.set(key, group);
    }
    return group;
  };
  const pair = new Set([leftId, rightId]);
  for (const row of linkRows) {
    const [parent, child] = [Number(row.parent_id), Number(row.child_id)];
    // a link between the two merged dossiers themselves is not carried over
    if (pair.has(parent) && pair.has(child)) continue;
    const out = pair.has(parent);
    const group = groupOf(row.link_id, out ? 'out' : 'in');
    const side = (out ? parent : child) === leftId ? group.left : group.right;
    side.push(out ? child : parent);
  }
  const linkDefs = await db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('id', 'in', [...groups.values()].map((g) => g.linkId).concat([0]))
    .execute();
  const single = new Set(
    linkDefs
      .filter((l) => l.type_of_link !== 'embeddedList' && l.settings.multiple !== true)
      .map((l) => l.id),
  );
  const chosenFor = new Map<string, { use_from: MergeLinkChoice; ids: number[]; itemId: number }>();
  for (const [itemId, choice] of linkChoices) {
    const link = (byId.get(itemId) as VisibleItem).link;
    if (!link) continue;
    chosenFor.set(linkKey(link), { ...choice, itemId });
  }
  const linkWrites: { group: LinkGroup; ids: number[] }[] = [];
  for (const [key, group] of groups) {
    const union = [...new Set([...group.left, ...group.right])];
    const choice = chosenFor.get(key);
    let ids: number[];
    switch (choice?.use_from ?? 'default') {
      case 'left':
        ids = group.left;
        break;
      case 'right':
        ids = group.right;
        break;
      case 'selectedlinks': {
        const chosen = [...new Set(choice?.ids ?? [])];
        if (chosen.some((id) => !union.includes(id))) {
          errors[String(choice?.itemId)] = MERGE_MESSAGES.notLinked;
          continue;
        }
        ids = chosen;
        break;
      }
      default:
        // a single link keeps one dossier: the first side's
        ids =
          group.direction === 'out' && single.has(group.linkId)
            ? group.left.length
              ? group.left
              : group.right
            : union;
    }
    linkWrites.push({ group, ids: [...new Set(ids)] });
  }
  if (Object.keys(errors).length) throw badRequest(errors);
  const linksByItem = new Map<number, number[]>();
  for (const v of items) {
    if (!v.link) continue;
    const key = linkKey(v.link);
    linksByItem.set(
      v.item.id,
      linkWrites.find((w) => `${w.group.direction}:${w.group.linkId}` === key)?.ids ?? [],
    );
  }
  checkRequired(
    scope.entity,
    items.filter((v) => EDIT_VIEWS.includes(v.item.view)),
    items,
    values,
    linksByItem,
    errors,
  );
  if (Object.keys(errors).length) throw badRequest(errors);

  const { id: mergedId, notified } = await db.transaction().execute(async (trx) => {
    const notified: number[] = [];
    await computeServerValues(db, trx, scope, values, true);
    const stored = computeSummary(await summaryConfig(db, scope.access, scope.entity.id), values);
    const created = await trx
      .insertInto('content_dossier')
      .values({
        environment_id: environmentId,
        def_dossier_id: scope.entity.id,
        values,
        summary: stored.summary,
        summaries: stored.summaries,
        created_by: user.id,
        modified_by: user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(created.id);
    if (hasEmptyText(stored)) {
      const withId = withIdWhenEmpty(stored, id);
      await trx
        .updateTable('content_dossier')
        .set({ summary: withId.summary, summaries: withId.summaries })
        .where('id', '=', id)
        .where('environment_id', '=', environmentId)
        .execute();
    }
    const linkValues = linkWrites.flatMap(({ group, ids }) =>
      ids.map((other, rank) => ({
        environment_id: environmentId,
        link_id: group.linkId,
        parent_id: group.direction === 'out' ? id : other,
        child_id: group.direction === 'out' ? other : id,
        rank,
      })),
    );
    for (let i = 0; i < linkValues.length; i += 500)
      await trx
        .insertInto('content_link')
        .values(linkValues.slice(i, i + 500))
        .execute();
    await writeLog(trx, scope.access, { id, entityId: scope.entity.id }, 'create', [
      { defDisplayItemName: 'merged', oldValue: [leftId, rightId], newValue: id },
    ]);
    for (const old of [left, right]) {
      const oldId = Number(old.id);
      const entry = { id: oldId, entityId: scope.entity.id };
      // the old dossiers' subscribers hear of it, as of any change, archive or delete
      notified.push(
        ...(await noticeSubscribers(trx, scope.access, oldId, action === 'keep' ? 'change' : action)),
      );
      if (action === 'delete') {
        await writeLog(trx, scope.access, entry, 'delete', [
          { defDisplayItemName: 'merged', oldValue: null, newValue: id },
        ]);
        await trx
          .deleteFrom('content_dossier')
          .where('id', '=', oldId)
          .where('environment_id', '=', environmentId)
          .execute();
        continue;
      }
      await writeLog(trx, scope.access, entry, 'change', [
        { defDisplayItemName: 'merged', oldValue: null, newValue: id },
      ]);
      if (action === 'archive' && !old.archived) {
        await trx
          .updateTable('content_dossier')
          .set({ archived: true, modified_by: user.id, modified_at: new Date() })
          .where('id', '=', oldId)
          .where('environment_id', '=', environmentId)
          .execute();
        await writeLog(trx, scope.access, entry, 'archive', [
          { defDisplayItemName: 'archived', oldValue: false, newValue: true },
        ]);
      }
    }
    return { id, notified };
  });
  await pushNotices(db, environmentId, [...new Set(notified)]);
  const sender = user.id;
  const entityId = scope.entity.id;
  const olds = [leftId, rightId].map((id) => ({ id, entityId }));
  announceDossiers(db, environmentId, 'created', [{ id: mergedId, entityId }], sender);
  if (action === 'delete') announceDossiers(db, environmentId, 'deleted', olds, sender);
  else if (action === 'archive')
    announceDossiers(db, environmentId, 'archived', olds, sender, { archived: true });
  else announceDossiers(db, environmentId, 'changed', olds, sender);
  return mergedId;
}
