import type { EnvironmentContact } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { EnvironmentAccess } from '../../policy/environment';
import { COLLEAGUE_COLUMNS, memberIsActive, membersOf, signedInSomewhere } from '../user/members';
import { presentMember } from '../user/present';

/** More admins than anyone reads through on a contact page. */
const MAX_ADMINS = 100;

/** The environment's own help contact: its setting `help_contact`, when it is filled in. */
function environmentContact(settings: Record<string, unknown>): string | null {
  const contact = settings.help_contact;
  return typeof contact === 'string' && contact.trim() !== '' ? contact.trim() : null;
}

/**
 * Whom a member of the environment asks for help: the platform's help contact, the environment's
 * own, and the environment's active admins with their e-mail addresses.
 */
export async function readContact(
  db: Db,
  config: Config,
  access: EnvironmentAccess,
): Promise<EnvironmentContact> {
  const admins = await membersOf(db, access.environment.id)
    .select([...COLLEAGUE_COLUMNS, 'u.email', signedInSomewhere.as('signed_in')])
    .where(sql<boolean>`'environment-admin' = any(eu.credentials)`)
    .where(memberIsActive)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.username')
    .limit(MAX_ADMINS)
    .execute();
  return {
    help_contact: config.helpContact,
    environment_contact: environmentContact(access.environment.settings),
    admins: admins.map((admin) => ({ ...presentMember({ ...admin, active: true }), email: admin.email })),
  };
}
