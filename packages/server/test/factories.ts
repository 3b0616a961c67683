import { randomBytes } from 'node:crypto';
import { hashPassword } from '../src/auth/passwords';
import type { Db } from '../src/db/database';
import { lockEnvironmentCreation } from '../src/db/partitions';
import type { EnvironmentRow, UserRow } from '../src/db/schema';

const unique = () => randomBytes(4).toString('hex');

export const DEFAULT_PASSWORD = 'correct horse battery';

// One hash for all factory users keeps the suite fast (argon2id is slow on purpose).
let defaultHash: Promise<string> | undefined;

export interface UserOverrides {
  username?: string;
  /** null: an account without a password (invited and never signed in, or single sign-on) */
  password?: string | null;
  email?: string | null;
  roles?: string[];
  otpSecret?: string | null;
  forcePasswordUpdate?: boolean;
  active?: boolean;
}

export async function buildUser(
  db: Db,
  overrides: UserOverrides = {},
): Promise<UserRow & { password: string }> {
  const username = overrides.username ?? `user_${unique()}`;
  const password = overrides.password === undefined ? DEFAULT_PASSWORD : overrides.password;
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  const user = await db
    .insertInto('app_user')
    .values({
      username,
      email: overrides.email === undefined ? `${username}@example.test` : overrides.email,
      password_hash:
        password === null
          ? null
          : password === DEFAULT_PASSWORD
            ? await defaultHash
            : await hashPassword(password),
      first_name: 'Test',
      last_name: username,
      roles: overrides.roles ?? ['ROLE_USER'],
      locale: null,
      private_settings: {},
      otp_secret: overrides.otpSecret ?? null,
      force_password_update: overrides.forcePasswordUpdate ?? false,
      active: overrides.active ?? true,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...user, password: password ?? '' };
}

export interface MemberSpec {
  user: { id: number };
  credentials?: string[];
  roleIds?: number[];
  /** false: deactivated in the environment */
  active?: boolean;
}

export interface EnvironmentOverrides {
  name?: string;
  description?: string;
  active?: boolean;
  createdBy?: { id: number } | null;
  members?: MemberSpec[];
  locales?: string[];
}

export async function buildEnvironment(
  db: Db,
  overrides: EnvironmentOverrides = {},
): Promise<EnvironmentRow> {
  // as the product creates one (db/partitions.ts): parallel creations would deadlock on the partitions
  const environment = await db.transaction().execute(async (trx) => {
    await lockEnvironmentCreation(trx);
    return trx
      .insertInto('environment')
      .values({
        name: overrides.name ?? `Environment ${unique()}`,
        description: overrides.description ?? 'A test environment',
        active: overrides.active ?? true,
        logo: null,
        logo_mime: null,
        apply_template: null,
        settings: {},
        created_by: overrides.createdBy?.id ?? null,
        modified_by: overrides.createdBy?.id ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  for (const member of overrides.members ?? []) await addMember(db, environment.id, member);
  const codes = overrides.locales ?? ['en_GB'];
  if (codes.length) {
    const locales = await db.selectFrom('locale').select(['id', 'code']).where('code', 'in', codes).execute();
    await db
      .insertInto('environment_locale')
      .values(
        locales.map((l) => ({
          environment_id: environment.id,
          locale_id: l.id,
          rank: codes.indexOf(l.code),
        })),
      )
      .execute();
  }
  return environment;
}

export async function addMember(db: Db, environmentId: number, member: MemberSpec) {
  await db
    .insertInto('environment_user')
    .values({
      environment_id: environmentId,
      user_id: member.user.id,
      credentials: member.credentials ?? [],
      role_ids: member.roleIds ?? [],
      active: member.active ?? true,
    })
    .execute();
}

export async function buildRole(db: Db, environmentId: number, name = `Role ${unique()}`) {
  return db
    .insertInto('role')
    .values({ environment_id: environmentId, name, translations: '[]' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildDefDossier(
  db: Db,
  environmentId: number,
  overrides: {
    type?: 'main' | 'hidden' | 'other';
    name?: string;
    rank?: number;
    visibilityRoles?: number[];
  } = {},
) {
  const name = overrides.name ?? `Entity ${unique()}`;
  return db
    .insertInto('def_dossier')
    .values({
      environment_id: environmentId,
      type: overrides.type ?? 'main',
      rank: overrides.rank ?? 0,
      visibility_roles: overrides.visibilityRoles ?? [],
      translations: JSON.stringify([{ culture: 'en_GB', name, name_singular: name, name_plural: name }]),
      settings: {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A subscription of the user running since yesterday; `maxUsers` null: no user limit. */
export async function buildSubscription(
  db: Db,
  userId: number,
  maxEnvironments: number,
  expiresInDays = 30,
  maxUsers: number | null = null,
) {
  const now = Date.now();
  return db
    .insertInto('subscription')
    .values({
      user_id: userId,
      max_environments: maxEnvironments,
      max_users: maxUsers,
      starts_at: new Date(now - 86_400_000),
      expires_at: new Date(now + expiresInDays * 86_400_000),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
