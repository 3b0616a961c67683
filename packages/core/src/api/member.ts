import { z } from 'zod';
import { listQuerySchema, pagedSchema, REQUIRED_MESSAGE } from './common';
import { ENVIRONMENT_CREDENTIALS } from './environment';
import { idSchema } from './ids';

// An environment's members as its admins manage them (/user and /user/{id}): roles and credentials
// per environment, active per environment, invitations by e-mail, and the global roles that only
// super admins change.

export const MEMBER_MESSAGES = {
  lastAdmin: 'An environment needs at least one active admin. Make another member admin first.',
  alreadyMember: 'This person is already a member of this environment.',
  accountDisabled: 'This account is disabled. A super admin can enable it again.',
  usernameTaken: 'Another account uses this e-mail address as its username.',
  userLimit: 'Your subscription allows no more users. Deactivate a member or upgrade the subscription.',
  unknownCredential: 'Unknown credential',
  noInvitation: 'This member has chosen a password already.',
  lastSuperAdmin: 'There must be at least one super admin.',
} as const;

/** The global roles a super admin grants and takes away; ROLE_USER and ROLE_AZURE_USER come with the account. */
export const CHANGEABLE_GLOBAL_ROLES = ['ROLE_ADMIN', 'ROLE_CONTRACT_ADMIN'] as const;
export type ChangeableGlobalRole = (typeof CHANGEABLE_GLOBAL_ROLES)[number];

/** The member list's page size on /user. */
export const MEMBER_PAGE_SIZE = 25;

const credentialsSchema = z
  .array(z.enum(ENVIRONMENT_CREDENTIALS, { error: MEMBER_MESSAGES.unknownCredential }))
  .max(ENVIRONMENT_CREDENTIALS.length);
const roleIdsSchema = z.array(idSchema).max(200);

export const memberSchema = z.object({
  /** the user's id */
  id: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** active in this environment */
  active: z.boolean(),
  /** the account itself may sign in */
  account_active: z.boolean(),
  /** role ids in this environment */
  roles: z.array(z.number()),
  credentials: z.array(z.string()),
  /** ROLE_ADMIN and ROLE_CONTRACT_ADMIN, when held */
  global_roles: z.array(z.string()),
  /** invited and never chose a password */
  invitation_pending: z.boolean(),
  /** member since */
  created_at: z.string(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberPageSchema = pagedSchema(memberSchema);

/** What the signed-in admin may do with this member (the server's policy). */
export const memberAbilitiesSchema = z.object({ canChangeGlobalRoles: z.boolean() });
export type MemberAbilities = z.infer<typeof memberAbilitiesSchema>;

export const memberDetailSchema = memberSchema.extend({
  /** the only active admin of the environment: cannot be removed, deactivated or demoted */
  last_admin: z.boolean(),
  abilities: memberAbilitiesSchema,
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

/** GET /api/environment/{id}/member */
export const memberListQuerySchema = listQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(200).default(MEMBER_PAGE_SIZE),
  active: z.enum(['0', '1']).optional(),
});

const nameSchema = z.string().trim().max(100, 'At most 100 characters').optional();

/** POST /api/environment/{id}/member: an existing account joins; an unknown address gets a new one. */
export const memberInviteSchema = z.object({
  email: z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .max(254, 'Invalid e-mail address')
    .pipe(z.email('Invalid e-mail address')),
  first_name: nameSchema,
  last_name: nameSchema,
  roles: roleIdsSchema.default([]),
  credentials: credentialsSchema.default([]),
});
export type MemberInvite = z.input<typeof memberInviteSchema>;

export const memberInviteAnswerSchema = z.object({
  member: memberSchema,
  /** a new account was made (and sent a sign-in link) */
  created: z.boolean(),
  /** the mail went out; when it did not, the admin can send a new account's invitation again */
  mailed: z.boolean(),
});
export type MemberInviteAnswer = z.infer<typeof memberInviteAnswerSchema>;

/** PATCH /api/environment/{id}/member/{userId} */
export const memberPatchSchema = z.object({
  roles: roleIdsSchema.optional(),
  credentials: credentialsSchema.optional(),
  active: z.boolean().optional(),
});
export type MemberPatch = z.infer<typeof memberPatchSchema>;

/** PUT /api/user/{id}/roles: the global roles the user holds from now on (super admins only). */
export const globalRolesSchema = z.object({ roles: z.array(z.enum(CHANGEABLE_GLOBAL_ROLES)).max(10) });
export const globalRolesAnswerSchema = z.object({ id: z.number(), global_roles: z.array(z.string()) });

/** The one way a person is named: first name, preposition and last name, or the username without them. */
export function personName(person: {
  username: string;
  first_name?: string | null;
  preposition?: string | null;
  last_name?: string | null;
}): string {
  const full = [person.first_name, person.preposition, person.last_name].filter(Boolean).join(' ');
  return full || person.username;
}
