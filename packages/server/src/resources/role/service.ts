import { type Pager, ROLE_MESSAGES, type roleCreateSchema, type rolePatchSchema } from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest } from '../../http-errors';
import { rewriteSummariesAfter } from '../content-dossier/summary-refresh';
import { isUniqueViolation } from '../def-dossier/service';
import { escapeLike } from '../environment/service';
import type { RoleRow } from './present';
import { describeRoleUsage, detachRole, findRoleUsage } from './usage';

export async function listRoles(
  db: Db,
  environmentId: number,
  { limit, page, search }: { limit: number; page: number; search?: string },
): Promise<{ rows: RoleRow[]; pager: Pager }> {
  let query = db.selectFrom('role').where('environment_id', '=', environmentId);
  if (search?.trim()) query = query.where('name', 'ilike', `%${escapeLike(search.trim())}%`);
  return paginate(query, (q) => q.selectAll().orderBy(sql`lower(name)`).orderBy('id'), {
    page: page,
    limit: limit,
  });
}

export const findRole = (db: Db, id: number) =>
  db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst();

/** Role names are unique per environment, ignoring case. */
async function assertNameFree(db: Db, environmentId: number, name: string, exceptId?: number) {
  let query = db
    .selectFrom('role')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw badRequest({ name: ROLE_MESSAGES.nameTaken });
}

const nameTakenOnRace = (error: unknown): never => {
  if (isUniqueViolation(error)) throw badRequest({ name: ROLE_MESSAGES.nameTaken });
  throw error;
};

export async function createRole(db: Db, input: z.output<typeof roleCreateSchema>): Promise<RoleRow> {
  await assertNameFree(db, input.environment, input.name);
  return db
    .insertInto('role')
    .values({
      environment_id: input.environment,
      name: input.name,
      translations: input.translations,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(nameTakenOnRace);
}

export async function updateRole(
  db: Db,
  row: RoleRow,
  input: z.output<typeof rolePatchSchema>,
): Promise<RoleRow> {
  if (input.name !== undefined) await assertNameFree(db, row.environment_id, input.name, row.id);
  if (input.name === undefined && input.translations === undefined) return row;
  return db
    .updateTable('role')
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.translations !== undefined ? { translations: input.translations } : {}),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(nameTakenOnRace);
}

/**
 * Deletes the role when nothing names it; otherwise refuses with where it is used, unless `detach`
 * asks to take it out of those places first, in the same transaction. Summaries of the entities whose
 * field or summary-item rules named it are rewritten after (content-dossier/summary-refresh.ts).
 */
export async function deleteRole(db: Db, row: RoleRow, { detach = false } = {}): Promise<void> {
  if (!detach) {
    const usage = describeRoleUsage(await findRoleUsage(db, row));
    if (usage.length) throw badRequest({ id: `${ROLE_MESSAGES.inUse}: ${usage.join('; ')}` });
  }
  const changedAt = new Date();
  const entities = await db.transaction().execute(async (trx) => {
    const touched = detach ? await detachRole(trx, row) : [];
    await trx
      .deleteFrom('role')
      .where('id', '=', row.id)
      .where('environment_id', '=', row.environment_id)
      .execute();
    return touched;
  });
  for (const id of entities)
    await rewriteSummariesAfter(db, { id, environment_id: row.environment_id }, changedAt);
}
