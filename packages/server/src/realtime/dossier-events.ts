import {
  DISPLAY_ITEM_EVENTS,
  type DisplayItemDeleteEvent,
  type DisplayItemFetchEvent,
  type DisplayItemUpdateEvent,
  DOSSIER_EVENTS,
  type DossierEvent,
  type DossierEventLink,
} from '@dossierbase/core';
import type { Db } from '../db/database';
import { environmentRoom, roomsOf } from './rooms';

// The events of dossier writes for the environment's room (issue 19, point 6). Each write calls these
// only after its transaction has committed, so a rolled-back write is never announced. They carry ids
// only: every client reads what changed through the API, where its roles apply.

/** A dossier a write touched, with its entity. */
export interface Written {
  id: number;
  entityId: number;
}

type Kind = keyof typeof DOSSIER_EVENTS;

/** One event per entity of the written dossiers (a cascade can reach other entities). */
export function announceDossiers(
  db: Db,
  environmentId: number,
  kind: Kind,
  written: readonly Written[],
  sender: number,
  extra: { archived?: boolean; links?: DossierEventLink[] } = {},
) {
  const rooms = roomsOf(db);
  if (!rooms || written.length === 0) return;
  const byEntity = new Map<number, number[]>();
  for (const w of written) byEntity.set(w.entityId, [...(byEntity.get(w.entityId) ?? []), w.id]);
  for (const [defDossier, ids] of byEntity) {
    const event: DossierEvent = { ids: [...new Set(ids)], defDossier, sender, ...extra };
    rooms.toEnvironment(environmentId, DOSSIER_EVENTS[kind], event);
    if (kind === 'deleted') {
      const gone: DisplayItemDeleteEvent = {
        defDossierId: defDossier,
        ids: event.ids,
        sender,
        room: environmentRoom(environmentId),
      };
      rooms.toEnvironment(environmentId, DISPLAY_ITEM_EVENTS.delete, gone);
    }
  }
}

/** Dossiers created inside an embedded list: the spec's display item update, per created dossier. */
export function announceEmbedded(
  db: Db,
  environmentId: number,
  ids: readonly number[],
  sender: number,
  embedded: { parentId: number; linkId: number; displayItems: number[] },
) {
  const rooms = roomsOf(db);
  if (!rooms) return;
  for (const dossierId of ids) {
    const event: DisplayItemUpdateEvent = { dossierId, sender, ...embedded };
    rooms.toEnvironment(environmentId, DISPLAY_ITEM_EVENTS.update, event);
  }
}

/** The links of a dossier written through its link fields: the lists embedded on either side read again. */
export function announceLinks(
  db: Db,
  environmentId: number,
  dossierId: number,
  linkIds: readonly number[],
  sender: number,
) {
  const rooms = roomsOf(db);
  if (!rooms) return;
  for (const linkId of new Set(linkIds)) {
    const event: DisplayItemFetchEvent = { dossierId, linkId, sender };
    rooms.toEnvironment(environmentId, DISPLAY_ITEM_EVENTS.fetch, event);
  }
}

/** The display items (of the parent's entity) that show a link: the embedded lists of a parent. */
export async function linkDisplayItems(db: Db, environmentId: number, linkId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('display_item')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where('def_dossier_link_id', '=', linkId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
