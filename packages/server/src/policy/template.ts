import type { UserRow } from '../db/schema';
import { isContractAdmin, isSuperAdmin } from './roles';

/** Templates are offered when creating environments, which super and contract admins do. */
export const canReadTemplates = (user: UserRow) => isSuperAdmin(user) || isContractAdmin(user);
