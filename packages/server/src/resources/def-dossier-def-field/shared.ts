import { isDeepStrictEqual } from 'node:util';
import { ENTITY_MESSAGES, idParamSchema, listQuerySchema } from '@dossierbase/core';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { badRequest } from '../../http-errors';

// Helpers shared by the layout resources (data fields, links, display positions, items and views).

export const idParams = z.object({ id: idParamSchema });
export const optionalId = idParamSchema.optional();

/** List filters every configuration list takes: lookups by environment and uuid (template apply). */
export const configListQuerySchema = listQuerySchema.extend({
  environment: optionalId,
  defDossier: optionalId,
  uuid: z.uuid().optional(),
});

/** The entity when it belongs to the environment; otherwise the given error (never another tenant's row). */
export async function entityOf(db: Db, environmentId: number, defDossierId: number, fail: () => Error) {
  const entity = await db
    .selectFrom('def_dossier')
    .selectAll()
    .where('id', '=', defDossierId)
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  if (!entity) throw fail();
  return entity;
}

export const NOT_IN_ENVIRONMENT = 'Not found in this environment';
export const NOT_OF_ENTITY = 'Does not belong to this entity';

/** A create body's entity: 400 on defDossier when it is not an entity of the environment. */
export const bodyEntity = (db: Db, environmentId: number, defDossierId: number) =>
  entityOf(db, environmentId, defDossierId, () => badRequest({ defDossier: NOT_IN_ENVIRONMENT }));

/** A PostgreSQL unique violation, optionally of one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  if (!constraint) return true;
  return e.constraint === constraint || (e.message?.includes(constraint) ?? false);
}

export const UUID_TAKEN = 'This uuid is already in use in this environment';

/**
 * A locked item may not change; the only change allowed is unlocking it (a request that changes
 * nothing else). `current` holds the stored values under the request's keys.
 */
export function assertNotLocked(
  locked: boolean,
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): void {
  if (!locked) return;
  const changed = Object.keys(next).filter((key) => {
    if (next[key] === undefined) return false;
    if (key === 'locked') return false;
    return !isDeepStrictEqual(next[key], current[key]);
  });
  if (changed.length > 0) throw badRequest({ locked: ENTITY_MESSAGES.locked });
}

export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `name`, then `name_2`, `name_3`... whichever is not taken yet. */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(name)) return name;
  for (let i = 2; ; i++) if (!used.has(`${name}_${i}`)) return `${name}_${i}`;
}
