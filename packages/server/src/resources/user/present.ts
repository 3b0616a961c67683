import { CHANGEABLE_GLOBAL_ROLES, type Presence, type Profile } from '@dossierbase/core';
import type { UserRow } from '../../db/schema';

export function presentProfile(user: UserRow): Profile {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    roles: user.roles,
    locale: user.locale,
    re_pwd: user.force_password_update,
    private_settings: { presence: user.private_settings.presence as Presence | undefined },
  };
}

const changeable = new Set<string>(CHANGEABLE_GLOBAL_ROLES);

/** The global roles a super admin changes (super admin, contract admin) that the user holds. */
export const globalRolesOf = (user: Pick<UserRow, 'roles'>) =>
  user.roles.filter((role) => changeable.has(role));
