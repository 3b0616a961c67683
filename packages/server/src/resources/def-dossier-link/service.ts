import {
  type DefDossier,
  type defDossierLinkBacklinkSchema,
  type defDossierLinkCreateSchema,
  type defDossierLinkPatchSchema,
  ENTITY_MESSAGES,
  type Pager,
  sanitiseLinkName,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest, notFound } from '../../http-errors';
import type { ConfigListScope } from '../../policy/configuration';
import {
  assertNotLocked,
  bodyEntity,
  entityOf,
  escapeLike,
  isUniqueViolation,
  NOT_IN_ENVIRONMENT,
  UUID_TAKEN,
  uniqueName,
} from '../def-dossier-def-field/shared';
import { placedMessage, placementsOf } from '../display-item/placements';
import type { LinkRow } from './present';

export type LinkCreate = z.infer<typeof defDossierLinkCreateSchema>;
export type LinkPatch = z.infer<typeof defDossierLinkPatchSchema>;
export type BacklinkTie = z.infer<typeof defDossierLinkBacklinkSchema>;

export const NAME_TAKEN = 'A link with this name already exists on this entity';
export const PLACED_LINK = 'You cannot delete a placed link';
export const BACKLINK_MISMATCH = 'The link and its backlink do not connect these entities';

export async function listLinks(
  db: Db,
  scope: ConfigListScope,
  query: {
    uuid?: string;
    child_def_dossier_id?: number;
    back_link_id?: number;
    search?: string;
    limit: number;
    page: number;
  },
): Promise<{ rows: LinkRow[]; pager: Pager }> {
  let base = db.selectFrom('def_dossier_link').where('environment_id', '=', scope.environmentId);
  if (scope.defDossierId !== undefined) base = base.where('def_dossier_id', '=', scope.defDossierId);
  if (query.uuid) base = base.where('uuid', '=', query.uuid);
  if (query.child_def_dossier_id !== undefined) {
    base = base.where('child_def_dossier_id', '=', query.child_def_dossier_id);
  }
  if (query.back_link_id !== undefined) base = base.where('back_link_id', '=', query.back_link_id);
  const search = query.search?.trim();
  if (search) base = base.where('name', 'ilike', `%${escapeLike(search)}%`);
  return paginate(base, (q) => q.selectAll().orderBy(sql`lower(name)`).orderBy('id'), {
    page: query.page,
    limit: query.limit,
  });
}

export async function findLink(db: Db, id: number): Promise<LinkRow> {
  const row = await db.selectFrom('def_dossier_link').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function namesOn(db: Db, defDossierId: number, exceptId?: number): Promise<string[]> {
  let query = db.selectFrom('def_dossier_link').select('name').where('def_dossier_id', '=', defDossierId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.execute()).map((row) => row.name);
}

function translateUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error, 'def_dossier_link_name_key')) throw badRequest({ name: NAME_TAKEN });
  if (isUniqueViolation(error, 'def_dossier_link_uuid_key')) throw badRequest({ uuid: UUID_TAKEN });
  throw error;
}

/** The backlink's name: the parent entity's plural (else singular) name, made a valid link name. */
function backlinkBaseName(translations: DefDossier['translations']): string {
  const first = translations[0];
  const name = sanitiseLinkName(first?.name_plural || first?.name_singular || first?.name || '');
  return name.replace(/^_+|_+$/g, '') || 'backlink';
}

/** Creates a link and, unless disabled, its backlink on the child entity, tied to each other. */
export async function createLink(db: Db, input: LinkCreate): Promise<LinkRow> {
  const parent = await bodyEntity(db, input.environment, input.defDossier);
  await entityOf(db, input.environment, input.childDefDossier, () =>
    badRequest({ childDefDossier: NOT_IN_ENVIRONMENT }),
  );
  const name = sanitiseLinkName(input.name);
  if (!name.replace(/_/g, '')) throw badRequest({ name: 'Use letters or digits in the name' });
  if ((await namesOn(db, parent.id)).includes(name)) throw badRequest({ name: NAME_TAKEN });
  try {
    return await db.transaction().execute(async (trx) => {
      const link = await trx
        .insertInto('def_dossier_link')
        .values({
          environment_id: input.environment,
          def_dossier_id: parent.id,
          child_def_dossier_id: input.childDefDossier,
          ...(input.uuid ? { uuid: input.uuid } : {}),
          name,
          type_of_link: input.typeOfLink,
          cascade_rule: input.cascadeRule,
          archive_cascade_rule: input.archiveCascadeRule,
          obligatory: input.obligatory,
          locked: input.locked,
          disable_backlink: input.disable_backlink,
          settings: input.settings,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.disable_backlink) return link;
      const backlinkName = uniqueName(
        backlinkBaseName(parent.translations),
        await namesOn(trx, input.childDefDossier),
      );
      const backlink = await trx
        .insertInto('def_dossier_link')
        .values({
          environment_id: input.environment,
          def_dossier_id: input.childDefDossier,
          child_def_dossier_id: parent.id,
          back_link_id: link.id,
          name: backlinkName,
          type_of_link: 'embeddedList',
          settings: {},
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return trx
        .updateTable('def_dossier_link')
        .set({ back_link_id: backlink.id })
        .where('id', '=', link.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  } catch (error) {
    translateUniqueViolation(error);
  }
}

export async function patchLink(db: Db, row: LinkRow, input: LinkPatch): Promise<LinkRow> {
  if (input.childDefDossier !== undefined && input.childDefDossier !== row.child_def_dossier_id) {
    throw badRequest({ childDefDossier: ENTITY_MESSAGES.linkEntityFixed });
  }
  const name = input.name === undefined ? undefined : sanitiseLinkName(input.name);
  assertNotLocked(
    row.locked,
    {
      name: row.name,
      typeOfLink: row.type_of_link,
      cascadeRule: row.cascade_rule,
      archiveCascadeRule: row.archive_cascade_rule,
      obligatory: row.obligatory,
      disable_backlink: row.disable_backlink,
      settings: row.settings,
      childDefDossier: row.child_def_dossier_id,
    },
    { ...input, name },
  );
  if (name !== undefined) {
    if (!name.replace(/_/g, '')) throw badRequest({ name: 'Use letters or digits in the name' });
    if (name !== row.name && (await namesOn(db, row.def_dossier_id, row.id)).includes(name)) {
      throw badRequest({ name: NAME_TAKEN });
    }
  }
  const changes = {
    name,
    type_of_link: input.typeOfLink,
    cascade_rule: input.cascadeRule,
    archive_cascade_rule: input.archiveCascadeRule,
    obligatory: input.obligatory,
    locked: input.locked,
    disable_backlink: input.disable_backlink,
    settings: input.settings,
  };
  if (Object.values(changes).every((value) => value === undefined)) return row;
  try {
    return await db
      .updateTable('def_dossier_link')
      .set(changes)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    translateUniqueViolation(error);
  }
}

/** Template apply: ties a link and its backlink (both found by uuid) to each other. */
export async function tieBacklink(db: Db, input: BacklinkTie): Promise<LinkRow> {
  const byUuid = (uuid: string) =>
    db
      .selectFrom('def_dossier_link')
      .selectAll()
      .where('environment_id', '=', input.environment)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  const [link, backlink] = await Promise.all([byUuid(input.uuid), byUuid(input.backlinkUuid)]);
  if (!link) throw notFound();
  if (!backlink) throw notFound();
  if (link.def_dossier_id !== input.defDossier || backlink.child_def_dossier_id !== input.defDossier) {
    throw badRequest({ defDossier: BACKLINK_MISMATCH });
  }
  if (
    link.child_def_dossier_id !== input.childDefDossier ||
    backlink.def_dossier_id !== input.childDefDossier
  ) {
    throw badRequest({ childDefDossier: BACKLINK_MISMATCH });
  }
  if (link.id === backlink.id) throw badRequest({ backlinkUuid: BACKLINK_MISMATCH });
  return db.transaction().execute(async (trx) => {
    // Former partners of either no longer point at them.
    await trx
      .updateTable('def_dossier_link')
      .set({ back_link_id: null })
      .where('back_link_id', 'in', [link.id, backlink.id])
      .where('id', 'not in', [link.id, backlink.id])
      .execute();
    await trx
      .updateTable('def_dossier_link')
      .set({ back_link_id: link.id })
      .where('id', '=', backlink.id)
      .execute();
    return trx
      .updateTable('def_dossier_link')
      .set({ back_link_id: backlink.id })
      .where('id', '=', link.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** Deletes a link with its backlink; refused while display items place either of them. */
export async function deleteLink(db: Db, row: LinkRow): Promise<void> {
  const backlink =
    row.back_link_id === null
      ? undefined
      : await db
          .selectFrom('def_dossier_link')
          .select('id')
          .where('id', '=', row.back_link_id)
          .where('back_link_id', '=', row.id)
          .executeTakeFirst();
  const ids = backlink && backlink.id !== row.id ? [row.id, backlink.id] : [row.id];
  const placements = await placementsOf(db, 'def_dossier_link_id', ids);
  if (placements.length) throw badRequest({ defDossierLink: placedMessage(PLACED_LINK, placements) });
  await db.deleteFrom('def_dossier_link').where('id', 'in', ids).execute();
}
