import { PROFILE_MESSAGES, type profilePatchSchema } from '@dossierbase/core';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { badRequest } from '../../http-errors';
import { findUserByEmail } from './service';

/**
 * Changes the signed-in user's own profile: the fields sent, and the private settings merged into
 * theirs. An e-mail address another account uses is refused: sign-in with Google or Microsoft and
 * invitations find accounts by it.
 */
export async function updateProfile(
  db: Db,
  user: UserRow,
  patch: z.output<typeof profilePatchSchema>,
): Promise<UserRow> {
  const { private_settings, ...fields } = patch;
  if (fields.email !== undefined && fields.email.toLowerCase() !== user.email?.toLowerCase()) {
    const owner = await findUserByEmail(db, fields.email);
    if (owner && owner.id !== user.id) throw badRequest({ email: PROFILE_MESSAGES.emailTaken });
  }
  return db
    .updateTable('app_user')
    .set({
      ...fields,
      private_settings: { ...user.private_settings, ...private_settings },
      modified_at: new Date(),
    })
    .where('id', '=', user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
