import type { UserRow } from '../db/schema';

export const isSuperAdmin = (user: Pick<UserRow, 'roles'>) => user.roles.includes('ROLE_ADMIN');
export const isContractAdmin = (user: Pick<UserRow, 'roles'>) => user.roles.includes('ROLE_CONTRACT_ADMIN');
