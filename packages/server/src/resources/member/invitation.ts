import { MEMBER_MESSAGES, type memberInviteSchema } from '@dossierbase/core';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import { issueLoginKey } from '../../auth/key-login';
import { endSecretTokens } from '../../auth/secret-tokens';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { EnvironmentRow, UserRow } from '../../db/schema';
import { badRequest } from '../../http-errors';
import type { Mailer } from '../../mail/mailer';
import { checkRoleIds, isUniqueViolation } from '../def-dossier/service';
import { insertUser } from '../user/service';
import type { MemberRow } from './present';
import { claimSeat } from './seats';
import { findMember, lockMemberships, requireMember } from './service';

// Invitations by e-mail: an existing account joins the environment and is told so; an address without
// an account gets one, with a one-time key-login link by mail, after which the new colleague chooses
// their password (the key login's forced update).

export interface InvitationDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'loginKeyTtlSeconds'>;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, 'error'>;
}

type Invite = z.output<typeof memberInviteSchema>;

const displayName = (user: Pick<UserRow, 'first_name' | 'last_name' | 'username'>) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;

/** The account of the address: an active one first, then the oldest. */
const accountByEmail = (db: Db, email: string) =>
  db
    .selectFrom('app_user')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .orderBy('active', 'desc')
    .orderBy('id')
    .executeTakeFirst();

async function newAccount(db: Db, invite: Invite): Promise<UserRow> {
  const username = invite.email.toLowerCase();
  const taken = await db
    .selectFrom('app_user')
    .select('id')
    .where(sql`lower(username)`, '=', username)
    .executeTakeFirst();
  if (taken) throw badRequest({ email: MEMBER_MESSAGES.usernameTaken });
  return insertUser(db, {
    username,
    email: invite.email,
    password_hash: null,
    first_name: invite.first_name || null,
    last_name: invite.last_name || null,
    roles: ['ROLE_USER'],
    locale: null,
    private_settings: {},
    otp_secret: null,
    // the key login of the mail asks for a password of their own first
    force_password_update: true,
  }).catch((error: unknown) => {
    // the same address invited elsewhere at the same moment
    if (isUniqueViolation(error)) throw badRequest({ email: MEMBER_MESSAGES.usernameTaken });
    throw error;
  });
}

/** Mails a new account its one-time sign-in link (any earlier one stops working). */
async function sendSignInLink(
  { db, config, mailer }: InvitationDeps,
  environment: EnvironmentRow,
  inviter: UserRow,
  user: Pick<UserRow, 'id' | 'username' | 'email'>,
): Promise<void> {
  await endSecretTokens(db, 'login_key', user.id);
  const { url } = await issueLoginKey(db, config, user);
  const days = Math.round(config.loginKeyTtlSeconds / 86_400);
  await mailer.send({
    to: user.email as string,
    subject: `You are invited to ${environment.name}`,
    text: `Hello,\n\n${displayName(inviter)} invited you to work in ${environment.name} on Dossierbase.\n\nFollow this link to sign in and choose your password:\n${url}\n\nThe link works once and expires in ${days} days. Your username is ${user.username}.\n`,
  });
}

async function sendAddedNotice(
  { config, mailer }: InvitationDeps,
  environment: EnvironmentRow,
  inviter: UserRow,
  user: Pick<UserRow, 'username' | 'email'>,
): Promise<void> {
  await mailer.send({
    to: user.email as string,
    subject: `You now have access to ${environment.name}`,
    text: `Hello,\n\n${displayName(inviter)} added you to ${environment.name} on Dossierbase.\n\nSign in as ${user.username} at ${config.publicUrl}/login to start working in it.\n`,
  });
}

/**
 * Invites the address into the environment: 400 when its account is a member already or disabled,
 * 403 when the subscription has no seat left. Answers the new member, whether an account was made and
 * whether the mail went out.
 */
export async function inviteMember(
  deps: InvitationDeps,
  inviter: UserRow,
  environment: EnvironmentRow,
  invite: Invite,
): Promise<{ member: MemberRow; created: boolean; mailed: boolean }> {
  await checkRoleIds(deps.db, environment.id, invite.roles, 'roles');
  const { member, account, created } = await deps.db.transaction().execute(async (trx) => {
    await lockMemberships(trx, environment.id);
    const existing = await accountByEmail(trx, invite.email);
    if (existing && !existing.active) throw badRequest({ email: MEMBER_MESSAGES.accountDisabled });
    if (existing && (await findMember(trx, environment.id, existing.id))) {
      throw badRequest({ email: MEMBER_MESSAGES.alreadyMember });
    }
    await claimSeat(trx, inviter, environment, existing?.id ?? null);
    const account = existing ?? (await newAccount(trx, invite));
    await trx
      .insertInto('environment_user')
      .values({
        environment_id: environment.id,
        user_id: account.id,
        credentials: [...new Set(invite.credentials)],
        role_ids: [...new Set(invite.roles)],
      })
      .execute();
    return { member: await requireMember(trx, environment.id, account.id), account, created: !existing };
  });
  // Mailed once the membership is there: a mail that fails leaves the member, and an admin can send
  // a new account's invitation again.
  const mail = created
    ? sendSignInLink(deps, environment, inviter, account)
    : account.email
      ? sendAddedNotice(deps, environment, inviter, account)
      : Promise.resolve();
  const mailed = await mail.then(
    () => account.email !== null,
    (error: unknown) => {
      deps.log.error({ err: error }, 'invitation mail failed');
      return false;
    },
  );
  return { member, created, mailed };
}

/** Sends an invited member who never signed in a new sign-in link (400 when they chose a password). */
export async function resendInvitation(
  deps: InvitationDeps,
  inviter: UserRow,
  environment: EnvironmentRow,
  userId: number,
): Promise<void> {
  const member = await requireMember(deps.db, environment.id, userId);
  if (!member.invitation_pending || !member.email) throw badRequest({ id: MEMBER_MESSAGES.noInvitation });
  await sendSignInLink(deps, environment, inviter, member);
}
