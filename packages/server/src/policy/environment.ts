import {
  ENVIRONMENT_MESSAGES,
  type EnvironmentCredential,
  type EnvironmentModule,
  TWO_FACTOR_REQUIRED,
} from '@dossierbase/core';
import { type Selectable, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { noteMemberActivity } from '../auth/activity-record';
import type { SessionClaims } from '../auth/session';
import { compiledOnce } from '../db/compiled-once';
import type { Db } from '../db/database';
import type { EnvironmentRow, EnvironmentUserTable, UserRow } from '../db/schema';
import { forbidden, notFound } from '../http-errors';
import { isSuperAdmin } from './roles';

export type Membership = Selectable<EnvironmentUserTable>;

/** Everything a permission decision about one environment needs. */
export interface EnvironmentAccess {
  environment: EnvironmentRow;
  membership: Membership | null;
  user: UserRow;
}

/** Super admins see every environment; everyone else only those they belong to. */
export const seesAllEnvironments = (user: UserRow) => isSuperAdmin(user);

/** The member holds this environment credential (spec doc 1 section 6). */
export const hasCredential = (
  access: Pick<EnvironmentAccess, 'membership'>,
  credential: EnvironmentCredential,
) => access.membership?.credentials.includes(credential) ?? false;

export const isEnvironmentAdmin = (access: Pick<EnvironmentAccess, 'user' | 'membership'>) =>
  isSuperAdmin(access.user) || hasCredential(access, 'environment-admin');

/**
 * Quick search (spec doc 1 section 6, doc 2 section 6): the quick_search credential. The spec ties it to
 * the entities (at least one must carry it); here credentials are the member's, and admins, who pass
 * every per-entity check, search too.
 */
export const canQuickSearch = (access: Pick<EnvironmentAccess, 'user' | 'membership'>) =>
  isEnvironmentAdmin(access) || hasCredential(access, 'quick_search');

/** The environment has this module switched on (spec doc 1: environment modules). */
export const hasModule = (access: Pick<EnvironmentAccess, 'environment'>, name: EnvironmentModule) =>
  access.environment.env_modules.includes(name);

/**
 * The hour registration view of an embedded list (spec doc 2 section 6): only with its module on.
 * Its dossiers are read through the list call, which checks 'show' on the entity as always.
 */
export const canUseHourRegistration = (access: Pick<EnvironmentAccess, 'environment'>) =>
  hasModule(access, 'hourregistration');

/**
 * A member an admin deactivated keeps their roles and credentials but cannot open the environment;
 * super admins open every environment.
 */
export const membershipOpens = (user: UserRow, membership: Pick<Membership, 'active'>) =>
  membership.active || seesAllEnvironments(user);

/** The credentials of whoever creates an environment: they administer it. */
export const CREATOR_CREDENTIALS: EnvironmentCredential[] = ['environment-admin', 'export', 'quick_search'];

/** Super admins create environments without the limit of a subscription. */
export const createsWithoutLimit = (user: UserRow) => isSuperAdmin(user);

/**
 * Switching an environment off and on: super admins only. An inactive environment opens for nobody,
 * so an environment admin who switched it off could not switch it back on.
 */
export const canSwitchActive = (user: Pick<UserRow, 'roles'>) => isSuperAdmin(user);

const ENVIRONMENT_COLUMNS = [
  'id',
  'name',
  'description',
  'active',
  'logo_mime',
  'apply_template',
  'settings',
  'env_modules',
  'config_version',
  'require_two_factor',
  'password_min_length',
  'password_complexity',
  'session_hours',
  'created_by',
  'modified_by',
  'created_at',
  'modified_at',
] as const satisfies readonly Exclude<keyof EnvironmentRow, 'logo'>[];

const USER_COLUMNS = [
  'id',
  'username',
  'email',
  'password_hash',
  'first_name',
  'preposition',
  'last_name',
  'mobile',
  'avatar_at',
  'roles',
  'locale',
  'private_settings',
  'otp_secret',
  'otp_pending_secret',
  'force_password_update',
  'active',
  'created_at',
  'modified_at',
] as const satisfies readonly (keyof UserRow)[];
// every column, so that signedInUser's user is the same row as currentUser's
const everyUserColumn: [Exclude<keyof UserRow, (typeof USER_COLUMNS)[number]>] extends [never]
  ? true
  : never = true;
void everyUserColumn;

/** The environment row (without the logo's bytes) and the user's membership; null: no such environment. */
type EnvironmentRead = { environment: EnvironmentRow; membership: Membership | null } | null;

/** The environment (without the logo's bytes) joined with the user's membership, from the user's row. */
function userAndEnvironmentQuery(db: Db, userId: number, environmentId: number) {
  return db
    .selectFrom('app_user as u')
    .leftJoin('environment as e', (join) => join.on('e.id', '=', environmentId))
    .leftJoin('environment_user as eu', (join) =>
      join.onRef('eu.environment_id', '=', 'e.id').onRef('eu.user_id', '=', 'u.id'),
    )
    .select(ENVIRONMENT_COLUMNS.map((column) => `e.${column}` as const))
    .select(sql<null>`null`.as('logo'))
    .select((eb) =>
      eb
        .case()
        .when('eu.id', 'is not', null)
        .then(sql<Membership>`to_jsonb(eu)`)
        .else(null)
        .end()
        .as('membership'),
    )
    .where('u.id', '=', userId);
}

// Runs on every openEnvironment of an environment the request's sign-in did not read: compiled once
// (db/compiled-once.ts).
const readEnvironment = compiledOnce(userAndEnvironmentQuery);

/** The environment and membership of a user that readEnvironment read (null: no such environment). */
async function readEnvironmentOf(db: Db, userId: number, environmentId: number): Promise<EnvironmentRead> {
  const [row] = await readEnvironment(db, userId, environmentId);
  if (!row || row.id === null) return null;
  const env = row as unknown as Record<string, unknown>;
  return {
    environment: Object.fromEntries(
      [...ENVIRONMENT_COLUMNS, 'logo'].map((column) => [column, env[column]]),
    ) as EnvironmentRow,
    membership: membershipOf(row.membership),
  };
}

/** A membership read as to_jsonb(environment_user), its date (text in JSON) as a Date. */
const membershipOf = (json: Membership | JsonRow | null): Membership | null =>
  json ? ({ ...json, created_at: new Date(json.created_at as string) } as Membership) : null;

type JsonRow = Record<string, unknown>;
/** A timestamp that came through JSON (as text) as the driver gives it: a Date, or null. */
const jsonDate = (value: unknown) => (value == null ? null : new Date(value as string));

/**
 * What every signed-in call reads first, in one call of the database function signed_in_read
 * (migration 2026-11-29T0500; inside it the statement's plan is kept, where this session plans every
 * statement anew): the user, when active and the session of the access token still open (undefined
 * otherwise), and with `environmentId` that environment (without the logo's bytes, which the logo
 * route reads) and the user's membership of it. The answer comes as JSON text, so that two reads can
 * be compared whole (a call that carries the read in its own statement, auth/current-user.ts).
 */
export const signedInReadSql = (
  claims: Pick<SessionClaims, 'userId' | 'sessionId'>,
  environmentId: number | null,
) => sql<string>`signed_in_read(${environmentId}, ${claims.userId}, ${claims.sessionId})::text`;

/**
 * The sign-in read carried by a statement the call runs anyway (the list's page statement): the
 * statement selects signedInReadSql of these values beside its rows and leaves what it read in `answer`.
 */
export interface SignInCheck {
  claims: Pick<SessionClaims, 'userId' | 'sessionId'>;
  environmentId: number;
  answer?: string;
}

/** signed_in_read's answer as text (see signedInReadSql). */
export async function readSignedInText(
  db: Db,
  claims: Pick<SessionClaims, 'userId' | 'sessionId'>,
  environmentId: number | null,
): Promise<string> {
  const { rows } = await sql<{
    read: string;
  }>`select ${signedInReadSql(claims, environmentId)} as read`.execute(db);
  return rows[0].read;
}

/**
 * A sign-in read's answer with the types the driver gives rows (its dates come as text in JSON, the
 * bigint config_version as a number); undefined when the user is inactive or the session closed.
 */
export function signedInFrom(text: string): { user: UserRow; read: EnvironmentRead } | undefined {
  let parsed = parsedReads.get(text);
  if (parsed === undefined) {
    parsed = parseSignedIn(text);
    if (parsed === undefined) return undefined;
    parsedReads.set(text, parsed);
  }
  // the user object is the request's own (a key of readWithUser below)
  return { user: { ...parsed.user }, read: parsed.read };
}

// A session's calls read the same answer again and again (a list paged, refreshed): each text is
// parsed once. Nothing changes the objects of an answer once parsed.
const parsedReads = new LRUCache<string, { user: UserRow; read: EnvironmentRead }>({ max: 1_000 });

function parseSignedIn(text: string): { user: UserRow; read: EnvironmentRead } | undefined {
  const { user, environment, membership } = JSON.parse(text) as {
    user: JsonRow | null;
    environment: JsonRow | null;
    membership: JsonRow | null;
  };
  if (!user) return undefined;
  return {
    user: {
      ...Object.fromEntries(USER_COLUMNS.map((column) => [column, user[column] ?? null])),
      avatar_at: jsonDate(user.avatar_at),
      created_at: jsonDate(user.created_at),
      modified_at: jsonDate(user.modified_at),
    } as UserRow,
    read: environment
      ? {
          environment: {
            ...Object.fromEntries(ENVIRONMENT_COLUMNS.map((column) => [column, environment[column] ?? null])),
            logo: null,
            config_version: String(environment.config_version),
            created_at: jsonDate(environment.created_at),
            modified_at: jsonDate(environment.modified_at),
          } as EnvironmentRow,
          membership: membershipOf(membership),
        }
      : null,
  };
}

export async function readSignedIn(
  db: Db,
  claims: SessionClaims,
  environmentId: number | null,
): Promise<{ user: UserRow; read: EnvironmentRead } | undefined> {
  return signedInFrom(await readSignedInText(db, claims, environmentId));
}

// What a sign-in read read about the environment, for the openEnvironment of the same request: keyed
// by the user object, which lives as long as its request.
const readWithUser = new WeakMap<UserRow, Map<number, EnvironmentRead>>();

/**
 * The user of a sign-in read's answer (undefined: inactive, or the session closed), with the standing
 * in `environmentId` it read kept for the request's openEnvironment of that environment, which then
 * costs no statement.
 */
export function signedInUser(text: string, environmentId: number): UserRow | undefined {
  const result = signedInFrom(text);
  if (!result) return undefined;
  readWithUser.set(result.user, new Map([[environmentId, result.read]]));
  return result.user;
}

/**
 * Loads the environment for a user who wants to work in it: 404 when it does not exist or they are
 * not a member (the same answer, so another tenant's ids do not tell that they exist), 403 when an
 * admin deactivated them in it, 403 with the inactive message when it is switched off.
 */
export async function openEnvironment(
  db: Db,
  user: UserRow,
  environmentId: number,
): Promise<EnvironmentAccess> {
  const known = readWithUser.get(user);
  const read = known?.has(environmentId)
    ? (known.get(environmentId) as EnvironmentRead)
    : await readEnvironmentOf(db, user.id, environmentId);
  if (!read) throw notFound();
  const { environment, membership } = read;
  if (!membership && !seesAllEnvironments(user)) throw notFound();
  // Read on every call, never cached: a member deactivated a moment ago is refused on their next call.
  if (membership && !membershipOpens(user, membership)) throw forbidden();
  if (!environment.active) throw forbidden(ENVIRONMENT_MESSAGES.inactive);
  // The environment's policy: its members reach nothing of it before they turn on two-factor sign-in.
  if (mustEnrolTwoFactor(user, environment, membership)) throw forbidden(TWO_FACTOR_REQUIRED);
  if (membership) await noteMemberActivity(db, environmentId, user.id);
  return { environment, membership, user };
}

/** A member of an environment that requires two-factor sign-in who has not turned it on. */
export const mustEnrolTwoFactor = (
  user: Pick<UserRow, 'otp_secret'>,
  environment: Pick<EnvironmentRow, 'require_two_factor'>,
  membership: Membership | null,
) => membership !== null && environment.require_two_factor && !user.otp_secret;

export async function requireEnvironmentAdmin(db: Db, user: UserRow, environmentId: number) {
  const access = await openEnvironment(db, user, environmentId);
  if (!isEnvironmentAdmin(access)) throw forbidden();
  return access;
}

/** A configuration row for an admin of its environment; a missing row answers 404 as a foreign one does. */
export async function administeredRow<T extends { environment_id: number }>(
  db: Db,
  user: UserRow,
  row: T | undefined,
): Promise<T> {
  if (!row) throw notFound();
  await requireEnvironmentAdmin(db, user, row.environment_id);
  return row;
}
