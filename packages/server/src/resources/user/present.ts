import {
  CHANGEABLE_GLOBAL_ROLES,
  type EnvironmentMember,
  type Presence,
  type Profile,
} from '@dossierbase/core';
import type { UserRow } from '../../db/schema';
import { presenceSeenByColleagues } from '../../policy/colleague';
import { presentAvatar } from '../avatar/present';

const chosenPresence = (user: Pick<UserRow, 'private_settings'>) =>
  user.private_settings.presence as Presence | undefined;

export function presentProfile(user: UserRow): Profile {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    preposition: user.preposition,
    last_name: user.last_name,
    mobile: user.mobile,
    roles: user.roles,
    locale: user.locale,
    re_pwd: user.force_password_update,
    private_settings: { presence: chosenPresence(user) },
    avatar: presentAvatar(user),
  };
}

/** A member as colleagues see them; `signed_in`: they have an open session somewhere. */
export type MemberRow = Pick<
  UserRow,
  'id' | 'username' | 'first_name' | 'preposition' | 'last_name' | 'private_settings' | 'avatar_at'
> & { active: boolean; signed_in: boolean };

export function presentMember(row: MemberRow): EnvironmentMember {
  return {
    id: row.id,
    username: row.username,
    profile: { first_name: row.first_name, preposition: row.preposition, last_name: row.last_name },
    environment_user_active: row.active,
    presence: presenceSeenByColleagues(chosenPresence(row), row.signed_in),
    avatar: presentAvatar(row),
  };
}

const changeable = new Set<string>(CHANGEABLE_GLOBAL_ROLES);

/** The global roles a super admin changes (super admin, contract admin) that the user holds. */
export const globalRolesOf = (user: Pick<UserRow, 'roles'>) =>
  user.roles.filter((role) => changeable.has(role));
