import { REQUIRED_MESSAGE } from '@dossierbase/core';
import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { badRequest } from '../http-errors';
import { entityInEnvironment, environmentOfEntity } from './entity';
import { type EnvironmentAccess, requireEnvironmentAdmin } from './environment';

// The configuration of an environment (entities, fields, links, positions, display items, views) is
// read and written by its administrators only: super admins and environment admins.

export interface ConfigListScope {
  access: EnvironmentAccess;
  environmentId: number;
  defDossierId?: number;
}

/**
 * Who may list configuration rows: an environment admin of the environment asked for, or of the
 * entity's environment. An entity outside the named environment is not found.
 */
export async function openConfigList(
  db: Db,
  user: UserRow,
  query: { environment?: number; defDossier?: number },
): Promise<ConfigListScope> {
  if (query.environment === undefined && query.defDossier === undefined)
    throw badRequest({ environment: REQUIRED_MESSAGE });
  const environmentId = query.environment ?? (await environmentOfEntity(db, query.defDossier as number));
  const access = await requireEnvironmentAdmin(db, user, environmentId);
  if (query.defDossier === undefined) return { access, environmentId };
  const entity = await entityInEnvironment(db, access, query.defDossier);
  return { access, environmentId, defDossierId: entity.id };
}
