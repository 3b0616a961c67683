import type { Member, MemberAbilities, MemberDetail } from '@dossierbase/core';
import { globalRolesOf } from '../user/present';

/** A membership with its account, as the member service reads it. */
export interface MemberRow {
  id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  roles: string[];
  account_active: boolean;
  invitation_pending: boolean;
  active: boolean;
  credentials: string[];
  role_ids: number[];
  created_at: Date;
}

export const presentMember = (row: MemberRow): Member => ({
  id: row.id,
  username: row.username,
  email: row.email,
  first_name: row.first_name,
  last_name: row.last_name,
  active: row.active,
  account_active: row.account_active,
  roles: row.role_ids,
  credentials: row.credentials,
  global_roles: globalRolesOf(row),
  invitation_pending: row.invitation_pending,
  created_at: row.created_at.toISOString(),
});

export const presentMemberDetail = (
  row: MemberRow,
  lastAdmin: boolean,
  abilities: MemberAbilities,
): MemberDetail => ({ ...presentMember(row), last_admin: lastAdmin, abilities });
