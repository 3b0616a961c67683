import { CHANGEABLE_GLOBAL_ROLES, ENVIRONMENT_CREDENTIALS, type Member, personName } from '@dossierbase/core';
import type { TFunction } from 'i18next';

/** First and last name, or the username when the member has none (personName's rule). */
export const memberName = (member: Pick<Member, 'first_name' | 'last_name' | 'username'>) =>
  personName(member);

// Credentials hold dots and dashes ('kedo.file.delete'), which the catalogues' keys cannot.
const credentialKey = (credential: string) => credential.replace(/[^a-z0-9]+/gi, '_');

export const credentialLabel = (t: TFunction, credential: string) =>
  (ENVIRONMENT_CREDENTIALS as readonly string[]).includes(credential)
    ? t(`admin.members.credentials.${credentialKey(credential)}`)
    : credential;

export const credentialHint = (t: TFunction, credential: string) =>
  t(`admin.members.credential_hints.${credentialKey(credential)}`);

export const globalRoleLabel = (t: TFunction, role: string) =>
  (CHANGEABLE_GLOBAL_ROLES as readonly string[]).includes(role)
    ? t(`admin.members.global_roles.${role}`)
    : role;

export type MemberStatus = 'active' | 'inactive' | 'pending' | 'disabled';

/** What the status badge says: a disabled account first, then the state in this environment. */
export function memberStatus(member: Member): MemberStatus {
  if (!member.account_active) return 'disabled';
  if (!member.active) return 'inactive';
  return member.invitation_pending ? 'pending' : 'active';
}

export const STATUS_COLORS: Record<MemberStatus, string> = {
  active: 'green',
  inactive: 'gray',
  pending: 'yellow',
  disabled: 'red',
};
