import type {
  DISPLAY_POSITION_TYPES,
  displayPositionCreateSchema,
  displayPositionPatchSchema,
  Pager,
} from '@dossierbase/core';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest, notFound } from '../../http-errors';
import type { ConfigListScope } from '../../policy/configuration';
import { bodyEntity, isUniqueViolation, UUID_TAKEN } from '../def-dossier-def-field/shared';
import type { PositionRow } from './present';

export type PositionCreate = z.infer<typeof displayPositionCreateSchema>;
export type PositionPatch = z.infer<typeof displayPositionPatchSchema>;

export const positionInUse = (count: number) =>
  `This position still holds ${count} display item${count === 1 ? '' : 's'}; move or delete them first`;

export async function listPositions(
  db: Db,
  scope: ConfigListScope,
  query: { uuid?: string; type?: (typeof DISPLAY_POSITION_TYPES)[number]; limit: number; page: number },
): Promise<{ rows: PositionRow[]; pager: Pager }> {
  let base = db.selectFrom('display_position').where('environment_id', '=', scope.environmentId);
  if (scope.defDossierId !== undefined) base = base.where('def_dossier_id', '=', scope.defDossierId);
  if (query.uuid) base = base.where('uuid', '=', query.uuid);
  if (query.type) base = base.where('type', '=', query.type);
  return paginate(base, (q) => q.selectAll().orderBy('rank').orderBy('id'), {
    page: query.page,
    limit: query.limit,
  });
}

export async function findPosition(db: Db, id: number): Promise<PositionRow> {
  const row = await db.selectFrom('display_position').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function createPosition(db: Db, input: PositionCreate): Promise<PositionRow> {
  const entity = await bodyEntity(db, input.environment, input.defDossier);
  try {
    return await db
      .insertInto('display_position')
      .values({
        environment_id: input.environment,
        def_dossier_id: entity.id,
        ...(input.uuid ? { uuid: input.uuid } : {}),
        type: input.type,
        hide: input.hide,
        rank: input.rank,
        view_name: input.view_name ?? null,
        translations: input.translations,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error, 'display_position_uuid_key')) throw badRequest({ uuid: UUID_TAKEN });
    throw error;
  }
}

export async function patchPosition(db: Db, row: PositionRow, input: PositionPatch): Promise<PositionRow> {
  const changes = {
    type: input.type,
    hide: input.hide,
    rank: input.rank,
    view_name: input.view_name,
    translations: input.translations,
  };
  if (Object.values(changes).every((value) => value === undefined)) return row;
  return db
    .updateTable('display_position')
    .set(changes)
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Refused while display items sit in the position (deleting it would take them along). */
export async function deletePosition(db: Db, row: PositionRow): Promise<void> {
  const { n } = await db
    .selectFrom('display_item')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('display_position_id', '=', row.id)
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) throw badRequest({ displayPosition: positionInUse(Number(n)) });
  await db.deleteFrom('display_position').where('id', '=', row.id).execute();
}
