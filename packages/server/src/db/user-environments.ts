import { seesAllEnvironments } from '../policy/environment';
import type { Db } from './database';
import type { UserRow } from './schema';

/**
 * The environments `user` may open, as a subquery of environment ids. A read by an id that arrives
 * without its environment (a dossier or file id in a URL) filters on it, as every read of a tenant's
 * row filters on environment_id: another environment's row is not found, for a super admin every
 * environment's is.
 */
export const openableEnvironmentIds = (db: Db, user: UserRow) =>
  seesAllEnvironments(user)
    ? db.selectFrom('environment').select('id as environment_id')
    : db.selectFrom('environment_user').select('environment_id').where('user_id', '=', user.id);
