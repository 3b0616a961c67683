import { MEMBER_MESSAGES, type MemberPatch, type Pager } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import type { EnvironmentRow, UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { isActiveAdmin, leavesWithoutAdmin } from '../../policy/membership';
import { checkRoleIds } from '../def-dossier/service';
import { memberMatches, membersOf } from '../user/members';
import type { MemberRow } from './present';
import { claimSeat } from './seats';

// An environment's members as its admins manage them. Every change of a membership runs under the
// environment's membership lock, so that the checks of a change (the last admin, the user limit) hold
// against changes made at the same time, on any node.

const MEMBERSHIP_LOCK = 16_001;

/** One change of the environment's memberships at a time (in a transaction). */
export async function lockMemberships(trx: Db, environmentId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${MEMBERSHIP_LOCK}, ${environmentId})`.execute(trx);
}

type MembersQuery = ReturnType<typeof membersOf>;

/** The account and membership columns of a member answer. */
const selectMember = (query: MembersQuery) =>
  query.select([
    'u.id',
    'u.username',
    'u.email',
    'u.first_name',
    'u.last_name',
    'u.roles',
    'u.active as account_active',
    // invited and never signed in: no password yet, and one to choose first
    sql<boolean>`u.password_hash is null and u.force_password_update`.as('invitation_pending'),
    'eu.active',
    'eu.credentials',
    'eu.role_ids',
    'eu.created_at',
  ]);

export async function listEnvironmentMembers(
  db: Db,
  environmentId: number,
  query: { search?: string; active?: '0' | '1'; page: number; limit: number },
): Promise<{ rows: MemberRow[]; pager: Pager }> {
  let filtered = membersOf(db, environmentId);
  if (query.search?.trim()) filtered = filtered.where(memberMatches(query.search.trim(), { email: true }));
  if (query.active) filtered = filtered.where('eu.active', '=', query.active === '1');
  return paginate(
    filtered,
    (q) => selectMember(q).orderBy('u.last_name').orderBy('u.first_name').orderBy('u.username'),
    query,
  );
}

export const findMember = (db: Db, environmentId: number, userId: number): Promise<MemberRow | undefined> =>
  selectMember(membersOf(db, environmentId)).where('eu.user_id', '=', userId).executeTakeFirst();

/** The member, or 404: an id that is not a member is answered as an unknown one. */
export async function requireMember(db: Db, environmentId: number, userId: number): Promise<MemberRow> {
  const member = await findMember(db, environmentId, userId);
  if (!member) throw notFound();
  return member;
}

/** Active admins of the environment other than the user, whose accounts may sign in. */
async function otherActiveAdmins(db: Db, environmentId: number, userId: number): Promise<number> {
  const { n } = await membersOf(db, environmentId)
    .select(sql<string>`count(*)`.as('n'))
    .where('eu.user_id', '<>', userId)
    .where('eu.active', '=', true)
    .where('u.active', '=', true)
    .where(sql<boolean>`'environment-admin' = any(eu.credentials)`)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The member is the environment's only active admin: not to be removed, deactivated or demoted. */
export async function isLastAdmin(db: Db, environmentId: number, member: MemberRow): Promise<boolean> {
  return isActiveAdmin(member) && (await otherActiveAdmins(db, environmentId, member.id)) === 0;
}

/**
 * Changes a member's roles, credentials or active state. Answers the member and whether they lost
 * access to the environment (deactivated), so that their sockets can leave its room.
 */
export async function changeMember(
  db: Db,
  actor: UserRow,
  environment: EnvironmentRow,
  userId: number,
  patch: MemberPatch,
): Promise<{ member: MemberRow; lostAccess: boolean }> {
  if (patch.roles) await checkRoleIds(db, environment.id, patch.roles, 'roles');
  return db.transaction().execute(async (trx) => {
    await lockMemberships(trx, environment.id);
    const before = await requireMember(trx, environment.id, userId);
    const after = {
      active: patch.active ?? before.active,
      credentials: patch.credentials ? [...new Set(patch.credentials)] : before.credentials,
      role_ids: patch.roles ? [...new Set(patch.roles)] : before.role_ids,
    };
    if (leavesWithoutAdmin(before, after, await otherActiveAdmins(trx, environment.id, userId))) {
      throw badRequest({ [after.active ? 'credentials' : 'active']: MEMBER_MESSAGES.lastAdmin });
    }
    // Activating a member takes a seat of the subscription again.
    if (after.active && !before.active) await claimSeat(trx, actor, environment, userId);
    await trx
      .updateTable('environment_user')
      .set(after)
      .where('environment_id', '=', environment.id)
      .where('user_id', '=', userId)
      .execute();
    return {
      member: await requireMember(trx, environment.id, userId),
      lostAccess: before.active && !after.active,
    };
  });
}

/** Takes the member out of the environment; refused for its last active admin. */
export async function removeMember(db: Db, environmentId: number, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockMemberships(trx, environmentId);
    const member = await requireMember(trx, environmentId, userId);
    if (leavesWithoutAdmin(member, null, await otherActiveAdmins(trx, environmentId, userId))) {
      throw badRequest({ id: MEMBER_MESSAGES.lastAdmin });
    }
    await trx
      .deleteFrom('environment_user')
      .where('environment_id', '=', environmentId)
      .where('user_id', '=', userId)
      .execute();
  });
}
