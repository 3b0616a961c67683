import { LOGIN_MESSAGES, PASSWORD_MIN_LENGTH, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildUser } from '../../../test/factories';
import type { TestSmtp } from '../../../test/smtp';
import { createTestAppWithMail, type MailTestApp, type TestClient } from '../../../test/test-app';
import { sha256 } from '../../auth/secret-tokens';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../auth/session';

const FORGOT_ANSWER = {
  message: 'If the username and e-mail address match an account, a mail is on its way.',
};
const INVALID_LINK = 'This link is invalid or has expired.';
const TOO_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters`;

let t: MailTestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  t = await createTestAppWithMail();
  smtp = t.smtp;
});
afterAll(() => t?.close());

let addressCounter = 0;
function login(client: TestClient, username: string, password: string) {
  addressCounter += 1;
  return client.request({
    method: 'POST',
    url: '/api/login_check',
    payload: { username, password },
    remoteAddress: `10.2.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`,
  });
}

/** forgot_password from an address of its own, so that the per-address limit counts one request. */
function forgot(body: unknown) {
  addressCounter += 1;
  return t.client().request({
    method: 'POST',
    url: '/api/user/forgot_password',
    payload: body as object,
    remoteAddress: `10.4.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`,
  });
}

const mailsTo = (address: string) =>
  smtp.messages.filter((m) =>
    [m.to].flat().some((to) => to?.value.some((v) => v.address?.toLowerCase() === address.toLowerCase())),
  );

/** Asks for a reset link for the user and answers the token from the mail. */
async function requestResetToken(user: { username: string; email: string | null }): Promise<string> {
  const response = await forgot({ username: user.username, email: user.email });
  expect(response.statusCode).toBe(200);
  const mail = await smtp.waitForMail(user.email!);
  const match = /\/reset_password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  expect(match).not.toBeNull();
  return match![1];
}

async function userRow(id: number) {
  return t.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('POST /api/user/forgot_password', () => {
  test('matching username and e-mail: 200 and a mail with a one-time reset link', async () => {
    const user = await buildUser(t.db);
    const response = await forgot({ username: user.username, email: user.email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(FORGOT_ANSWER);

    const mail = await smtp.waitForMail(user.email!);
    expect(mail.subject).toBe('Reset your Dossierbase password');
    expect(mail.from?.text).toContain('no-reply@dossierbase.local');
    const match = /(\S+)\/reset_password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    expect(match).not.toBeNull();
    expect(match![1]).toBe('http://localhost:3000');
    expect(mail.text).toContain(user.username);
    expect(mail.text).toContain('60 minutes');

    // Only the hash of the token is kept.
    const rows = await t.db.selectFrom('password_reset').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256(match![2]));
    expect(rows[0].used_at).toBeNull();
    const ttl = rows[0].expires_at.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
  });

  test('username and e-mail are matched case-insensitively', async () => {
    const user = await buildUser(t.db);
    const response = await forgot({
      username: user.username.toUpperCase(),
      email: ` ${user.email!.toUpperCase()} `,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(FORGOT_ANSWER);
    await smtp.waitForMail(user.email!);
  });

  test('unknown user, wrong e-mail and inactive user: the same answer and no mail', async () => {
    const user = await buildUser(t.db);
    const inactive = await buildUser(t.db, { active: false });
    const cases = [
      { username: `nobody_${user.id}`, email: user.email },
      { username: user.username, email: `other_${user.id}@example.test` },
      { username: inactive.username, email: inactive.email },
    ];
    for (const body of cases) {
      const response = await forgot(body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(FORGOT_ANSWER);
    }
    // The mail is sent before the answer, so anything sent has arrived by now.
    expect(mailsTo(user.email!)).toEqual([]);
    expect(mailsTo(`other_${user.id}@example.test`)).toEqual([]);
    expect(mailsTo(inactive.email!)).toEqual([]);
    const tokens = await t.db
      .selectFrom('password_reset')
      .select('id')
      .where('user_id', 'in', [user.id, inactive.id])
      .execute();
    expect(tokens).toEqual([]);
  });

  test('missing fields and an invalid e-mail: 400 with field messages', async () => {
    const missing = await forgot({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: { username: REQUIRED_MESSAGE, email: REQUIRED_MESSAGE } });

    const blank = await forgot({ username: 'someone', email: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ errors: { email: REQUIRED_MESSAGE } });

    const invalid = await forgot({ username: 'someone', email: 'not-an-address' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ errors: { email: 'Invalid e-mail address' } });
  });
});

describe('password reset links', () => {
  test('GET with a valid token names the user; a made-up token is invalid', async () => {
    const user = await buildUser(t.db);
    const token = await requestResetToken(user);
    const valid = await t.client().get(`/api/user/reset_password/${token}`);
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ valid: true, username: user.username });
    // Looking does not use the link up.
    expect((await t.client().get(`/api/user/reset_password/${token}`)).statusCode).toBe(200);

    const madeUp = await t.client().get('/api/user/reset_password/made-up-token');
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json()).toEqual({ errors: { token: INVALID_LINK } });
  });

  test('POST sets the new password: it signs in, the old one does not, and the link is used up', async () => {
    const user = await buildUser(t.db, { forcePasswordUpdate: true });
    const session = t.client();
    expect((await login(session, user.username, user.password)).statusCode).toBe(200);
    const token = await requestResetToken(user);

    const newPassword = 'a brand new password';
    const response = await t.client().post('/api/user/reset_password', { token, password: newPassword });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your password has been changed. You can sign in now.' });
    expect((await userRow(user.id)).force_password_update).toBe(false);

    const withNew = await login(t.client(), user.username, newPassword);
    expect(withNew.statusCode).toBe(200);
    expect(withNew.json()).toMatchObject({ user_id: user.id, re_pwd: false });
    const withOld = await login(t.client(), user.username, user.password);
    expect(withOld.statusCode).toBe(401);
    expect(withOld.json()).toEqual({ message: LOGIN_MESSAGES.incorrect });

    // Sessions opened before the reset end: their access token is refused and cannot be renewed.
    expect(session.cookies.has(REFRESH_COOKIE)).toBe(true);
    expect((await session.get('/api/user/profile')).statusCode).toBe(401);
    expect((await session.post('/api/refresh_token')).statusCode).toBe(401);

    const reuse = await t
      .client()
      .post('/api/user/reset_password', { token, password: 'yet another password' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ errors: { token: INVALID_LINK } });
    const check = await t.client().get(`/api/user/reset_password/${token}`);
    expect(check.statusCode).toBe(400);
    expect(check.json()).toEqual({ errors: { token: INVALID_LINK } });
    // The reuse attempt did not change the password.
    expect((await login(t.client(), user.username, newPassword)).statusCode).toBe(200);
  });

  test('an expired link is refused and leaves the password alone', async () => {
    const user = await buildUser(t.db);
    const token = await requestResetToken(user);
    await t.db
      .updateTable('password_reset')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', sha256(token))
      .execute();

    const check = await t.client().get(`/api/user/reset_password/${token}`);
    expect(check.statusCode).toBe(400);
    expect(check.json()).toEqual({ errors: { token: INVALID_LINK } });
    const reset = await t
      .client()
      .post('/api/user/reset_password', { token, password: 'a brand new password' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toEqual({ errors: { token: INVALID_LINK } });
    expect((await login(t.client(), user.username, user.password)).statusCode).toBe(200);
  });

  test('a too-short password or a missing token: 400, and the link stays usable', async () => {
    const user = await buildUser(t.db);
    const token = await requestResetToken(user);
    const short = await t.client().post('/api/user/reset_password', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ errors: { password: TOO_SHORT } });

    const noToken = await t
      .client()
      .post('/api/user/reset_password', { token: '', password: 'long enough password' });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json()).toEqual({ errors: { token: REQUIRED_MESSAGE } });

    const missingPassword = await t.client().post('/api/user/reset_password', { token });
    expect(missingPassword.statusCode).toBe(400);
    expect(missingPassword.json()).toEqual({ errors: { password: REQUIRED_MESSAGE } });

    const ok = await t.client().post('/api/user/reset_password', { token, password: 'long enough password' });
    expect(ok.statusCode).toBe(200);
  });
});

describe('a reset link expires after resetLinkTtlSeconds', () => {
  test('a link older than its lifetime is refused', async () => {
    const short = await createTestAppWithMail({ resetLinkTtlSeconds: 1 });
    try {
      const user = await buildUser(short.db);
      await short.client().post('/api/user/forgot_password', { username: user.username, email: user.email });
      const mail = await short.smtp.waitForMail(user.email!);
      const token = /\/reset_password\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
      expect((await short.client().get(`/api/user/reset_password/${token}`)).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const check = await short.client().get(`/api/user/reset_password/${token}`);
      expect(check.statusCode).toBe(400);
      expect(check.json()).toEqual({ errors: { token: INVALID_LINK } });
      const reset = await short
        .client()
        .post('/api/user/reset_password', { token, password: 'long enough password' });
      expect(reset.statusCode).toBe(400);
    } finally {
      await short.close();
    }
  });
});

describe('PATCH /api/user/change_password', () => {
  test('not signed in: 401', async () => {
    const response = await t.client().patch('/api/user/change_password', {
      current_password: 'whatever it is',
      password: 'long enough password',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not signed in' });
  });

  test('needs the current password: missing or wrong is 400 and nothing changes', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    await login(client, user.username, user.password);
    const before = (await userRow(user.id)).password_hash;

    const missing = await client.patch('/api/user/change_password', { password: 'long enough password' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: { current_password: REQUIRED_MESSAGE } });

    const wrong = await client.patch('/api/user/change_password', {
      current_password: 'not my password',
      password: 'long enough password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: { current_password: 'Incorrect password' } });

    const short = await client.patch('/api/user/change_password', {
      current_password: user.password,
      password: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ errors: { password: TOO_SHORT } });

    expect((await userRow(user.id)).password_hash).toBe(before);
  });

  test('with the right current password: the new token data and the new password signs in', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    await login(client, user.username, user.password);
    const response = await client.patch('/api/user/change_password', {
      current_password: user.password,
      password: 'my own new password',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      username: user.username,
      user_id: user.id,
      roles: user.roles,
      re_pwd: false,
      iat: expect.any(Number),
      exp: expect.any(Number),
      abilities: { canCreateEnvironments: false, canHoldSubscriptions: false },
    });
    expect((await login(t.client(), user.username, 'my own new password')).statusCode).toBe(200);
    expect((await login(t.client(), user.username, user.password)).statusCode).toBe(401);
  });

  test('changing the password ends the sessions of other devices, not this one', async () => {
    const user = await buildUser(t.db);
    const other = t.client();
    await login(other, user.username, user.password);
    const client = t.client();
    const signedIn = await login(client, user.username, user.password);
    const accessBefore = signedIn.cookies.find((c: { name: string }) => c.name === ACCESS_COOKIE)?.value;
    expect(accessBefore).toBeTruthy();
    const changed = await client.patch('/api/user/change_password', {
      current_password: user.password,
      password: 'another new password',
    });
    expect(changed.statusCode).toBe(200);
    // A call this device sent with its cookie of before the change (in flight while the answer was on
    // its way) is still this session's: not a 401, which the web client takes for a sign-out.
    const inFlight = await t.app.inject({
      method: 'GET',
      url: '/api/user/profile',
      cookies: { [ACCESS_COOKIE]: String(accessBefore) },
    });
    expect(inFlight.statusCode, inFlight.body).toBe(200);
    // The other device's access token is refused at once, not only when it would have expired.
    expect((await other.get('/api/user/profile')).statusCode).toBe(401);
    expect((await other.post('/api/refresh_token')).statusCode).toBe(401);
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
    expect((await client.post('/api/refresh_token')).statusCode).toBe(200);
  });

  test('a forced update (after a key login) needs no current password and clears the flag', async () => {
    const user = await buildUser(t.db, { forcePasswordUpdate: true });
    const client = t.client();
    const signIn = await login(client, user.username, user.password);
    expect(signIn.json().re_pwd).toBe(true);

    const response = await client.patch('/api/user/change_password', { password: 'chosen by myself' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user_id: user.id, re_pwd: false });
    expect((await userRow(user.id)).force_password_update).toBe(false);
    // The renewed access cookie carries the cleared flag.
    expect((await client.get('/api/user/profile')).json().re_pwd).toBe(false);
    expect((await login(t.client(), user.username, 'chosen by myself')).statusCode).toBe(200);
  });
});

describe('GET and PATCH /api/user/profile', () => {
  test('signed out: 401', async () => {
    expect((await t.client().get('/api/user/profile')).statusCode).toBe(401);
    expect((await t.client().patch('/api/user/profile', { first_name: 'X' })).statusCode).toBe(401);
  });

  test('GET answers the profile of the signed-in user', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    await login(client, user.username, user.password);
    const response = await client.get('/api/user/profile');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      first_name: 'Test',
      preposition: null,
      last_name: user.username,
      mobile: null,
      roles: ['ROLE_USER'],
      locale: null,
      re_pwd: false,
      private_settings: {},
      avatar: null,
    });
  });

  test('every presence is saved in private_settings.presence, other private settings are kept', async () => {
    const user = await buildUser(t.db);
    await t.db
      .updateTable('app_user')
      .set({ private_settings: JSON.stringify({ presence: 'online', theme: 'dark' }) })
      .where('id', '=', user.id)
      .execute();
    const client = t.client();
    await login(client, user.username, user.password);
    for (const presence of ['away', 'busy', 'invisible', 'online'] as const) {
      const response = await client.patch('/api/user/profile', { private_settings: { presence } });
      expect(response.statusCode).toBe(200);
      expect(response.json().private_settings).toEqual({ presence });
      expect((await userRow(user.id)).private_settings).toEqual({ presence, theme: 'dark' });
    }
    // A patch of other fields leaves the private settings alone.
    const names = await client.patch('/api/user/profile', {
      first_name: ' Ada ',
      last_name: 'Lovelace',
      locale: 'nl_NL',
    });
    expect(names.statusCode).toBe(200);
    expect(names.json()).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', locale: 'nl_NL' });
    const row = await userRow(user.id);
    expect(row).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      locale: 'nl_NL',
      email: user.email,
    });
    expect(row.private_settings).toEqual({ presence: 'online', theme: 'dark' });
  });

  test('an invalid presence or e-mail: 400 and nothing saved', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    await login(client, user.username, user.password);
    const presence = await client.patch('/api/user/profile', { private_settings: { presence: 'sleeping' } });
    expect(presence.statusCode).toBe(400);
    expect(Object.keys(presence.json().errors)).toEqual(['private_settings.presence']);

    const email = await client.patch('/api/user/profile', { email: 'not-an-address', first_name: 'Changed' });
    expect(email.statusCode).toBe(400);
    expect(email.json()).toEqual({ errors: { email: 'Invalid e-mail address' } });

    const row = await userRow(user.id);
    expect(row.private_settings).toEqual({});
    expect(row.email).toBe(user.email);
    expect(row.first_name).toBe('Test');
  });

  test('the e-mail can be changed, not cleared: it is how a reset link reaches the user', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    await login(client, user.username, user.password);
    const changed = await client.patch('/api/user/profile', { email: `new_${user.id}@example.test` });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().email).toBe(`new_${user.id}@example.test`);
    for (const email of [null, '', '  ']) {
      const cleared = await client.patch('/api/user/profile', { email });
      expect(cleared.statusCode).toBe(400);
      expect(Object.keys(cleared.json().errors)).toEqual(['email']);
    }
    expect((await userRow(user.id)).email).toBe(`new_${user.id}@example.test`);
  });

  test('roles, username and unknown private settings cannot be set through the profile', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    await login(client, user.username, user.password);
    const response = await client.patch('/api/user/profile', {
      roles: ['ROLE_USER', 'ROLE_ADMIN'],
      username: 'admin',
      active: false,
      force_password_update: true,
      private_settings: { presence: 'busy', is_admin: true },
    });
    expect(response.statusCode).toBe(200);
    const row = await userRow(user.id);
    expect(row.roles).toEqual(['ROLE_USER']);
    expect(row.username).toBe(user.username);
    expect(row.active).toBe(true);
    expect(row.force_password_update).toBe(false);
    expect(row.private_settings).toEqual({ presence: 'busy' });
  });
});
