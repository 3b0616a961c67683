import { LOGIN_MESSAGES, RESET_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildUser } from '../../../test/factories';
import type { TestSmtp } from '../../../test/smtp';
import { createTestAppWithMail, type MailTestApp, type TestClient } from '../../../test/test-app';
import { createSecretToken } from '../../auth/secret-tokens';

const FORGOT_ANSWER = {
  message: 'If the username and e-mail address match an account, a mail is on its way.',
};
const INVALID_LINK = { errors: { token: 'This link is invalid or has expired.' } };

let t: MailTestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  t = await createTestAppWithMail();
  smtp = t.smtp;
});
afterAll(() => t?.close());

// Every request comes from an address of its own unless a test says otherwise, so that the
// per-address limits count only what a test means them to.
let addressCounter = 0;
const freshAddress = () => {
  addressCounter += 1;
  return `10.3.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

type Account = { username: string; email: string | null };

function forgot(user: Account, address = freshAddress()) {
  return t.client().request({
    method: 'POST',
    url: '/api/user/forgot_password',
    payload: { username: user.username, email: user.email },
    remoteAddress: address,
  });
}

const mailsTo = (address: string) =>
  smtp.messages.filter((m) =>
    [m.to].flat().some((to) => to?.value.some((v) => v.address?.toLowerCase() === address.toLowerCase())),
  );
const tokenIn = (text: string | undefined) => /\/reset_password\/([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];

/** Asks for a reset link and answers its token, from the newest mail to the user. */
async function resetToken(user: Account): Promise<string> {
  const before = mailsTo(user.email!).length;
  const response = await forgot(user);
  expect(response.statusCode).toBe(200);
  // The mail is sent before the answer.
  const mails = mailsTo(user.email!);
  expect(mails).toHaveLength(before + 1);
  const token = tokenIn(mails.at(-1)?.text);
  expect(token).toBeTruthy();
  return token!;
}

const checkLink = (token: string) => t.client().get(`/api/user/reset_password/${token}`);
const useLink = (token: string, password: string) =>
  t.client().post('/api/user/reset_password', { token, password });

async function liveLinks(userId: number) {
  return t.db
    .selectFrom('password_reset')
    .select('id')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .execute();
}

function signIn(client: TestClient, username: string, password: string, address = freshAddress()) {
  return client.request({
    method: 'POST',
    url: '/api/login_check',
    payload: { username, password },
    remoteAddress: address,
  });
}

describe('reset links end', () => {
  test('when a newer link is issued: only the newest works', async () => {
    const user = await buildUser(t.db);
    const older = await resetToken(user);
    const newer = await resetToken(user);
    expect((await checkLink(older)).json()).toEqual(INVALID_LINK);
    const refused = await useLink(older, 'set through the old link');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(INVALID_LINK);

    expect((await checkLink(newer)).statusCode).toBe(200);
    expect((await useLink(newer, 'set through the new link')).statusCode).toBe(200);
    // The older link does not come back once the newer one is used.
    expect((await useLink(older, 'set through the old link')).statusCode).toBe(400);
    expect((await signIn(t.client(), user.username, 'set through the new link')).statusCode).toBe(200);
  });

  test('when the password is changed', async () => {
    const user = await buildUser(t.db);
    const pending = await resetToken(user);
    const client = t.client();
    expect((await signIn(client, user.username, user.password)).statusCode).toBe(200);
    const changed = await client.patch('/api/user/change_password', {
      current_password: user.password,
      password: 'my own new password',
    });
    expect(changed.statusCode).toBe(200);

    expect((await checkLink(pending)).json()).toEqual(INVALID_LINK);
    const refused = await useLink(pending, 'set through the pending link');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(INVALID_LINK);
    expect((await signIn(t.client(), user.username, 'my own new password')).statusCode).toBe(200);
  });

  test('when a key login is followed by its forced change', async () => {
    const user = await buildUser(t.db);
    const pending = await resetToken(user);
    const key = await createSecretToken(t.db, 'login_key', user.id, 3600);
    const client = t.client();
    expect((await client.post('/api/key_login_check', { username: user.username, key })).statusCode).toBe(
      200,
    );
    expect(
      (await client.patch('/api/user/change_password', { password: 'chosen by myself' })).statusCode,
    ).toBe(200);
    expect((await useLink(pending, 'set through the pending link')).statusCode).toBe(400);
    expect(await liveLinks(user.id)).toEqual([]);
  });

  test('when another link resets the password', async () => {
    const user = await buildUser(t.db);
    const token = await resetToken(user);
    expect((await useLink(token, 'reset once')).statusCode).toBe(200);
    expect(await liveLinks(user.id)).toEqual([]);
  });
});

describe('forgot_password is limited', () => {
  test('per user: the 4th request within the window sends no mail, with the same answer', async () => {
    const user = await buildUser(t.db);
    for (let i = 0; i < 3; i++) await resetToken(user);
    const fourth = await forgot(user);
    expect(fourth.statusCode).toBe(200);
    expect(fourth.json()).toEqual(FORGOT_ANSWER);
    expect(mailsTo(user.email!)).toHaveLength(3);
    const rows = await t.db
      .selectFrom('password_reset')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(3);
    expect(await liveLinks(user.id)).toHaveLength(1);
  });

  test('30 requests for one user from 30 addresses: 3 mails and one live link', async () => {
    const user = await buildUser(t.db);
    const answers = await Promise.all(Array.from({ length: 30 }, () => forgot(user)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(answers.every((a) => a.body === JSON.stringify(FORGOT_ANSWER))).toBe(true);
    expect(mailsTo(user.email!)).toHaveLength(3);
    const rows = await t.db
      .selectFrom('password_reset')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(3);
    expect(await liveLinks(user.id)).toHaveLength(1);
    // The link of the last mail sent is the live one.
    const tokens = mailsTo(user.email!).map((m) => tokenIn(m.text)!);
    const valid = await Promise.all(tokens.map(async (token) => (await checkLink(token)).statusCode));
    expect(valid.filter((status) => status === 200)).toHaveLength(1);
  });

  test('a new window brings a new mail, and links from before it are cleared', async () => {
    const user = await buildUser(t.db);
    for (let i = 0; i < 3; i++) await resetToken(user);
    expect((await forgot(user)).statusCode).toBe(200);
    expect(mailsTo(user.email!)).toHaveLength(3);
    const past = new Date(Date.now() - (t.config.resetWindowSeconds + 60) * 1000);
    await t.db
      .updateTable('password_reset')
      .set({ created_at: past })
      .where('user_id', '=', user.id)
      .execute();
    const token = await resetToken(user);
    expect((await checkLink(token)).statusCode).toBe(200);
    const rows = await t.db
      .selectFrom('password_reset')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  test('per address: the 11th request answers 429, whether or not the account exists', async () => {
    const address = freshAddress();
    const known = await buildUser(t.db);
    for (let i = 0; i < 10; i++) {
      const response = await forgot(
        { username: `nobody_${known.id}_${i}`, email: 'nobody@example.test' },
        address,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(FORGOT_ANSWER);
    }
    for (const account of [known, { username: `nobody_${known.id}`, email: 'nobody@example.test' }]) {
      const limited = await forgot(account, address);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: RESET_MESSAGES.tooMany });
    }
    expect(mailsTo(known.email!)).toEqual([]);
    expect(await liveLinks(known.id)).toEqual([]);
    // Other addresses are not held up.
    expect((await forgot(known)).statusCode).toBe(200);
    expect(mailsTo(known.email!)).toHaveLength(1);
    // Requests older than the window count no more.
    const past = new Date(Date.now() - (t.config.resetWindowSeconds + 60) * 1000);
    await t.db
      .updateTable('password_reset_request')
      .set({ created_at: past })
      .where('address', '=', address)
      .execute();
    expect((await forgot(known, address)).statusCode).toBe(200);
  });
});

describe('guesses of the current password count toward the sign-in limit', () => {
  test('after 5 wrong guesses the 6th answers 429 even when right, and sign-in is throttled too', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    expect((await signIn(client, user.username, user.password)).statusCode).toBe(200);
    const address = freshAddress();
    const change = (current: string) =>
      client.request({
        method: 'PATCH',
        url: '/api/user/change_password',
        payload: { current_password: current, password: 'a guessed new password' },
        remoteAddress: address,
      });
    for (let i = 0; i < 5; i++) {
      const wrong = await change(`wrong guess ${i}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ errors: { current_password: 'Incorrect password' } });
    }
    const throttled = await change(user.password);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toEqual({ message: LOGIN_MESSAGES.tooMany });

    // The password is unchanged, and signing in (from anywhere) is throttled for the user.
    const signInLater = await signIn(t.client(), user.username, user.password);
    expect(signInLater.statusCode).toBe(429);
    expect(signInLater.json()).toEqual({ message: LOGIN_MESSAGES.tooMany });
    await t.db.deleteFrom('login_attempt').where('username', '=', user.username).execute();
    expect((await signIn(t.client(), user.username, user.password)).statusCode).toBe(200);
  });

  test('a right guess forgives the earlier wrong ones, as a sign-in does', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    expect((await signIn(client, user.username, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      const wrong = await client.patch('/api/user/change_password', {
        current_password: `wrong guess ${i}`,
        password: 'a guessed new password',
      });
      expect(wrong.statusCode).toBe(400);
    }
    const right = await client.patch('/api/user/change_password', {
      current_password: user.password,
      password: 'the real new password',
    });
    expect(right.statusCode).toBe(200);
    const failures = await t.db
      .selectFrom('login_attempt')
      .select('id')
      .where('username', '=', user.username)
      .where('success', '=', false)
      .execute();
    expect(failures).toEqual([]);
  });
});
