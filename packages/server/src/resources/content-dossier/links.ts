import { DOSSIER_MESSAGES, parseFieldSettings } from '@dossierbase/core';
import type { Db } from '../../db/database';
import { badRequest } from '../../http-errors';
import type { LinkRow } from '../../policy/display-item';
import { authorize, canShowDossiers } from '../../policy/dossier';
import { type EntityScope, entityPermissions } from '../../policy/entity';

// The dossiers a dossier links to. A link is stored once (content_link) under its forward link; its
// backlink reads the same rows from the other side.

/** A backlink row points at its forward link, which was created first (lower id). */
export const isBacklink = (link: LinkRow) => link.back_link_id !== null && link.back_link_id < link.id;
export const forwardLinkId = (link: LinkRow) => (isBacklink(link) ? (link.back_link_id as number) : link.id);

export async function linkedIds(
  db: Db,
  environmentId: number,
  dossierId: number,
  link: LinkRow,
): Promise<number[]> {
  const rows = isBacklink(link)
    ? await db
        .selectFrom('content_link')
        .select('parent_id as other')
        .where('environment_id', '=', environmentId)
        .where('link_id', '=', forwardLinkId(link))
        .where('child_id', '=', dossierId)
        .orderBy('rank')
        .orderBy('id')
        .execute()
    : await db
        .selectFrom('content_link')
        .select('child_id as other')
        .where('environment_id', '=', environmentId)
        .where('link_id', '=', link.id)
        .where('parent_id', '=', dossierId)
        .orderBy('rank')
        .orderBy('id')
        .execute();
  return rows.map((row) => Number(row.other));
}

/** Replaces the dossiers linked to `dossierId` through `link` with `ids`, in that order. */
export async function writeLinks(
  db: Db,
  environmentId: number,
  dossierId: number,
  link: LinkRow,
  ids: number[],
) {
  const back = isBacklink(link);
  const fwd = forwardLinkId(link);
  await db
    .deleteFrom('content_link')
    .where('environment_id', '=', environmentId)
    .where('link_id', '=', fwd)
    .where(back ? 'child_id' : 'parent_id', '=', dossierId)
    .execute();
  if (ids.length === 0) return;
  await db
    .insertInto('content_link')
    .values(
      ids.map((other, rank) => ({
        environment_id: environmentId,
        link_id: fwd,
        parent_id: back ? other : dossierId,
        child_id: back ? dossierId : other,
        rank,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The dossiers `dossierId` (of entity `entityId`) links to as parent, per forward link of the entity
 * that `follow` picks and that has any: what a cascade of its delete or archive reaches.
 */
export async function childrenThrough(
  db: Db,
  environmentId: number,
  entityId: number,
  dossierId: number,
  follow: (link: LinkRow) => boolean,
): Promise<{ link: LinkRow; children: { id: number; entityId: number }[] }[]> {
  const links = await db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', entityId)
    .execute();
  const result = [];
  for (const link of links.filter((l) => !isBacklink(l) && follow(l))) {
    const rows = await db
      .selectFrom('content_link as l')
      .innerJoin('content_dossier as c', (join) =>
        join.onRef('c.id', '=', 'l.child_id').onRef('c.environment_id', '=', 'l.environment_id'),
      )
      .select(['c.id', 'c.def_dossier_id'])
      .where('l.environment_id', '=', environmentId)
      .where('l.link_id', '=', link.id)
      .where('l.parent_id', '=', dossierId)
      .execute();
    if (rows.length === 0) continue;
    result.push({
      link,
      children: rows.map((row) => ({ id: Number(row.id), entityId: row.def_dossier_id })),
    });
  }
  return result;
}

export const EMBEDDED_MESSAGES = {
  both: 'Give both embedded and linkId',
  link: 'Unknown link',
  parent: 'Unknown dossier',
} as const;

/**
 * The link setting limit_embedded_link of an embedded list's link: a link of the child entity that leads
 * back to the parent's entity. The embedded list then shows only the children whose own link holds the
 * parent too, and a child added there is linked to the parent through it as well. Null when not set,
 * or when the id no longer names such a link (removed, or leading elsewhere, where it could never
 * hold the parent).
 */
export async function limitLinkOf(db: Db, environmentId: number, link: LinkRow): Promise<LinkRow | null> {
  const id = parseFieldSettings('link', link.settings ?? {}).limit_embedded_link;
  if (id === null) return null;
  const limit = await db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('id', '=', id)
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', link.child_def_dossier_id)
    .where('child_def_dossier_id', '=', link.def_dossier_id)
    .executeTakeFirst();
  return limit ?? null;
}

/** The parent dossier and link of a dossier created inside an embedded list (spec: embedded, linkId). */
export async function embeddedParent(
  db: Db,
  scope: EntityScope,
  input: { embedded?: number; linkId?: number },
): Promise<{ link: LinkRow; parentId: number; limit: LinkRow | null } | null> {
  if (input.embedded === undefined && input.linkId === undefined) return null;
  if (input.embedded === undefined || input.linkId === undefined)
    throw badRequest({ [input.embedded === undefined ? 'embedded' : 'linkId']: EMBEDDED_MESSAGES.both });
  const link = await db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('id', '=', input.linkId)
    .where('environment_id', '=', scope.access.environment.id)
    .where('child_def_dossier_id', '=', scope.entity.id)
    .executeTakeFirst();
  if (!link) throw badRequest({ linkId: EMBEDDED_MESSAGES.link });
  const parent = await db
    .selectFrom('content_dossier')
    .select(['id', 'archived'])
    .where('id', '=', input.embedded)
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', link.def_dossier_id)
    .executeTakeFirst();
  if (!parent) throw badRequest({ embedded: EMBEDDED_MESSAGES.parent });
  if (parent.archived) throw badRequest({ embedded: DOSSIER_MESSAGES.archived });
  authorize(canShowDossiers({ permissions: await entityPermissions(db, scope.access, link.def_dossier_id) }));
  const single = link.type_of_link === 'select' && link.settings.multiple !== true;
  if (single && (await linkedIds(db, scope.access.environment.id, Number(parent.id), link)).length > 0)
    throw badRequest({ linkId: DOSSIER_MESSAGES.singleLink });
  const limit = await limitLinkOf(db, scope.access.environment.id, link);
  return { link, parentId: Number(parent.id), limit };
}

/** Links a dossier created inside an embedded list to its parent, after the parent's other links. */
export async function appendLink(
  db: Db,
  environmentId: number,
  parentId: number,
  link: LinkRow,
  newId: number,
) {
  const back = isBacklink(link);
  const fwd = forwardLinkId(link);
  const max = await db
    .selectFrom('content_link')
    .select((eb) => eb.fn.max('rank').as('rank'))
    .where('environment_id', '=', environmentId)
    .where('link_id', '=', fwd)
    .where(back ? 'child_id' : 'parent_id', '=', parentId)
    .executeTakeFirst();
  await db
    .insertInto('content_link')
    .values({
      environment_id: environmentId,
      link_id: fwd,
      parent_id: back ? newId : parentId,
      child_id: back ? parentId : newId,
      rank: Number(max?.rank ?? -1) + 1,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
