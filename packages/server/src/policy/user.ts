import type { UserRow } from '../db/schema';
import { isSuperAdmin } from './roles';

/** Handing out a one-time login key lets the holder act as that user: super admins only. */
export const canIssueLoginKey = (actor: UserRow) => isSuperAdmin(actor);

/**
 * After a key login the user must choose a password of their own before anything else: every call
 * but the change (and what shows its form) is refused until then.
 */
export const mustReplacePassword = (user: UserRow) => user.force_password_update;
