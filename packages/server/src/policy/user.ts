import type { UserRow } from '../db/schema';
import { isSuperAdmin } from './roles';

/** Handing out a one-time login key lets the holder act as that user: super admins only. */
export const canIssueLoginKey = (actor: UserRow) => isSuperAdmin(actor);
