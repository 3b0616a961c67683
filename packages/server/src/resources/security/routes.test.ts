import {
  LOGIN_MESSAGES,
  OTP_HEADER,
  PASSWORD_MESSAGES,
  RECOVERY_CODE_PATTERN,
  SECURITY_MESSAGES,
  TWO_FACTOR_REQUIRED,
} from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDefDossier, buildEnvironment, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp, TestClient } from '../../../test/test-app';
import { generateOtpCode } from '../../auth/otp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

let addressCounter = 0;
const freshAddress = () => {
  addressCounter += 1;
  return `10.44.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

/** Signs in from an address of its own, with a browser's user agent; the answer as is. */
async function login(
  username: string,
  password: string,
  code?: string,
  userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
) {
  const client = new TestClient(t.app);
  const headers: Record<string, string> = { 'user-agent': userAgent };
  if (code !== undefined) headers[OTP_HEADER] = code;
  const response = await client.request({
    method: 'POST',
    url: '/api/login_check',
    payload: { username, password },
    headers,
    remoteAddress: freshAddress(),
  });
  return { client, response };
}

const put = (client: TestClient, url: string, payload: unknown) =>
  client.request({ method: 'PUT', url, payload: payload as Record<string, unknown> });

/** Turns two-factor sign-in on for the client's user; answers the secret and the recovery codes. */
async function enrol(client: TestClient) {
  const setup = await client.post('/api/user/two_factor/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, otpauth_url } = setup.json() as { secret: string; otpauth_url: string };
  expect(otpauth_url).toContain(`secret=${secret}`);
  const confirm = await client.post('/api/user/two_factor/confirm', { code: await generateOtpCode(secret) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { secret, codes: (confirm.json() as { recovery_codes: string[] }).recovery_codes };
}

describe('two-factor sign-in', () => {
  test('enrolment is confirmed with a first code; then sign-in asks for a code', async () => {
    const { user, client } = await t.signIn();
    expect((await client.get('/api/user/security')).json()).toMatchObject({
      two_factor: false,
      recovery_codes_left: 0,
    });
    const setup = await client.post('/api/user/two_factor/setup');
    const { secret } = setup.json() as { secret: string };
    // until confirmed, the secret is not in use
    expect((await login(user.username, user.password)).response.statusCode).toBe(200);
    const wrong = await client.post('/api/user/two_factor/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: { code: LOGIN_MESSAGES.otpIncorrect } });
    const confirm = await client.post('/api/user/two_factor/confirm', {
      code: await generateOtpCode(secret),
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const codes = (confirm.json() as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
    // stored hashed, never as shown
    const stored = await t.db
      .selectFrom('user_recovery_code')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes).not.toContain(row.code_hash);
    expect((await client.get('/api/user/security')).json()).toMatchObject({
      two_factor: true,
      recovery_codes_left: 10,
    });
    // a second set-up is refused
    expect((await client.post('/api/user/two_factor/setup')).statusCode).toBe(400);

    const noCode = await login(user.username, user.password);
    expect(noCode.response.statusCode).toBe(401);
    expect(noCode.response.json()).toMatchObject({ message: LOGIN_MESSAGES.otpRequired, otp_required: true });
    const badCode = await login(user.username, user.password, '123456');
    expect(badCode.response.statusCode).toBe(401);
    const withCode = await login(user.username, user.password, await generateOtpCode(secret));
    expect(withCode.response.statusCode, withCode.response.body).toBe(200);
  });

  test('confirming without a set-up is refused', async () => {
    const { client } = await t.signIn();
    const response = await client.post('/api/user/two_factor/confirm', { code: '123456' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: { code: SECURITY_MESSAGES.notStarted } });
  });

  test('each recovery code works once in place of a code', async () => {
    const { user, client } = await t.signIn();
    const { codes } = await enrol(client);
    const first = await login(user.username, user.password, codes[0]!.toUpperCase());
    expect(first.response.statusCode, first.response.body).toBe(200);
    const again = await login(user.username, user.password, codes[0]);
    expect(again.response.statusCode).toBe(401);
    expect(again.response.json()).toMatchObject({ message: LOGIN_MESSAGES.otpIncorrect });
    const second = await login(user.username, user.password, codes[1]);
    expect(second.response.statusCode).toBe(200);
    expect((await client.get('/api/user/security')).json()).toMatchObject({ recovery_codes_left: 8 });
    // another user's code is no code of this one
    const other = await t.signIn();
    const otherCodes = (await enrol(other.client)).codes;
    expect((await login(user.username, user.password, otherCodes[0])).response.statusCode).toBe(401);
    // new codes replace the old ones, with the password
    expect((await client.post('/api/user/two_factor/recovery_codes', { password: 'wrong' })).statusCode).toBe(
      400,
    );
    const renewed = await client.post('/api/user/two_factor/recovery_codes', { password: user.password });
    expect(renewed.statusCode).toBe(200);
    expect((await login(user.username, user.password, codes[2])).response.statusCode).toBe(401);
    const fresh = (renewed.json() as { recovery_codes: string[] }).recovery_codes;
    expect((await login(user.username, user.password, fresh[0])).response.statusCode).toBe(200);
  });

  test('turning it off needs the password', async () => {
    const { user, client } = await t.signIn();
    await enrol(client);
    const wrong = await client.post('/api/user/two_factor/disable', { password: 'not it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: { password: PASSWORD_MESSAGES.incorrect } });
    const off = await client.post('/api/user/two_factor/disable', { password: user.password });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ two_factor: false, recovery_codes_left: 0 });
    expect((await login(user.username, user.password)).response.statusCode).toBe(200);
    expect(
      await t.db.selectFrom('user_recovery_code').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    expect((await client.post('/api/user/two_factor/disable', { password: user.password })).statusCode).toBe(
      400,
    );
  });

  test('anonymous callers get 401 on every call', async () => {
    const anonymous = t.client();
    for (const [method, url] of [
      ['GET', '/api/user/security'],
      ['POST', '/api/user/two_factor/setup'],
      ['POST', '/api/user/two_factor/confirm'],
      ['POST', '/api/user/two_factor/recovery_codes'],
      ['POST', '/api/user/two_factor/disable'],
      ['GET', '/api/user/session'],
      ['POST', '/api/user/session/end_others'],
      ['GET', '/api/environment/1/security_policy'],
      ['PUT', '/api/environment/1/security_policy'],
    ] as const) {
      const response = await anonymous.request({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('the environment policy', () => {
  const policy = {
    require_two_factor: false,
    password_min_length: 12,
    password_complexity: true,
    session_hours: 8,
  };

  async function setting() {
    const admin = await t.signIn();
    const member = await t.signIn();
    const otherAdmin = await t.signIn();
    const environment = await buildEnvironment(t.db, {
      members: [{ user: admin.user, credentials: ['environment-admin'] }, { user: member.user }],
    });
    await buildEnvironment(t.db, {
      members: [{ user: otherAdmin.user, credentials: ['environment-admin'] }],
    });
    return { admin, member, otherAdmin, environment };
  }

  test('its admins read and set it; members, admins of other environments and anonymous callers are refused', async () => {
    const { admin, member, otherAdmin, environment } = await setting();
    const url = `/api/environment/${environment.id}/security_policy`;
    expect((await admin.client.get(url)).json()).toEqual({
      require_two_factor: false,
      password_min_length: 8,
      password_complexity: false,
      session_hours: null,
    });
    const saved = await put(admin.client, url, policy);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(policy);
    expect((await admin.client.get(url)).json()).toEqual(policy);

    expect((await member.client.get(url)).statusCode).toBe(403);
    expect((await put(member.client, url, policy)).statusCode).toBe(403);
    expect((await otherAdmin.client.get(url)).statusCode).toBe(404);
    expect((await put(otherAdmin.client, url, { ...policy, password_min_length: 40 })).statusCode).toBe(404);
    expect((await t.client().get(url)).statusCode).toBe(401);
    expect((await put(t.client(), url, policy)).statusCode).toBe(401);
    expect((await admin.client.get(url)).json()).toEqual(policy);

    const tooShort = await put(admin.client, url, { ...policy, password_min_length: 4 });
    expect(tooShort.statusCode).toBe(400);
  });

  test('an admin turns on two-factor sign-in for themselves before requiring it', async () => {
    const { admin, environment } = await setting();
    const url = `/api/environment/${environment.id}/security_policy`;
    const refused = await put(admin.client, url, { ...policy, require_two_factor: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { require_two_factor: SECURITY_MESSAGES.enrolFirst } });
    await enrol(admin.client);
    expect((await put(admin.client, url, { ...policy, require_two_factor: true })).statusCode).toBe(200);
  });

  test('a member of an environment that requires two-factor sign-in reaches no dossier call before enrolling', async () => {
    const { admin, member, environment } = await setting();
    const entity = await buildDefDossier(t.db, environment.id);
    await enrol(admin.client);
    await put(admin.client, `/api/environment/${environment.id}/security_policy`, {
      ...policy,
      require_two_factor: true,
    });
    const calls = [
      `/api/environment/${environment.id}`,
      `/api/environment/${environment.id}/contact`,
      `/api/contentdossier?defDossier=${entity.id}&environment=${environment.id}`,
      `/api/user?environment=${environment.id}`,
    ];
    for (const url of calls) {
      const response = await member.client.get(url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json(), url).toMatchObject({ message: TWO_FACTOR_REQUIRED });
    }
    // the sign-in tells the client to send them to the enrolment
    const signIn = await login(member.user.username, member.user.password);
    expect(signIn.response.json()).toMatchObject({ two_factor_required: true });
    expect((await member.client.get('/api/user/security')).json()).toMatchObject({
      two_factor: false,
      required_by: [environment.name],
    });
    const { secret } = await enrol(member.client);
    // now the member's own permissions decide (no permission on the entity: the general 403)
    for (const url of calls) {
      const response = await member.client.get(url);
      expect(response.json(), url).not.toMatchObject({ message: TWO_FACTOR_REQUIRED });
      if (!url.startsWith('/api/contentdossier')) expect(response.statusCode, url).toBe(200);
    }
    const again = await login(member.user.username, member.user.password, await generateOtpCode(secret));
    expect(again.response.json()).not.toHaveProperty('two_factor_required');
    // the admin is enrolled and keeps their way in
    expect((await admin.client.get(calls[1]!)).statusCode).toBe(200);
  });

  test('password length and complexity hold on change, reset and the forced change after an invitation', async () => {
    const { admin, member, environment } = await setting();
    await put(admin.client, `/api/environment/${environment.id}/security_policy`, policy);
    expect((await member.client.get('/api/user/security')).json()).toMatchObject({
      password: { min_length: 12, complexity: true },
    });
    const change = (password: string) =>
      member.client.patch('/api/user/change_password', { current_password: member.user.password, password });
    const short = await change('Short1!abc');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ errors: { password: SECURITY_MESSAGES.passwordTooShort } });
    const plain = await change('long enough but plain');
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toEqual({ errors: { password: SECURITY_MESSAGES.passwordComplexity } });
    expect((await change('Long-enough 2026!')).statusCode).toBe(200);

    // an invited member sets their password under the same rules
    const invited = await buildUser(t.db, { forcePasswordUpdate: true });
    await t.db
      .insertInto('environment_user')
      .values({ environment_id: environment.id, user_id: invited.id, credentials: [], role_ids: [] })
      .execute();
    const invitedClient = (await login(invited.username, invited.password)).client;
    const forced = await invitedClient.patch('/api/user/change_password', { password: 'weakweakweak' });
    expect(forced.statusCode).toBe(400);
    expect(forced.json()).toEqual({ errors: { password: SECURITY_MESSAGES.passwordComplexity } });

    // a reset link: refused, and the link still works for a strong password
    const { createSecretToken } = await import('../../auth/secret-tokens');
    const token = await createSecretToken(t.db, 'password_reset', member.user.id, 600);
    const weakReset = await t.client().post('/api/user/reset_password', { token, password: 'abcdefghijkl' });
    expect(weakReset.statusCode).toBe(400);
    expect(weakReset.json()).toEqual({ errors: { password: SECURITY_MESSAGES.passwordComplexity } });
    const strongReset = await t
      .client()
      .post('/api/user/reset_password', { token, password: 'Abcdefghijk1!' });
    expect(strongReset.statusCode, strongReset.body).toBe(200);

    // someone in no such environment keeps the platform's rules
    const outsider = await t.signIn();
    expect(
      (
        await outsider.client.patch('/api/user/change_password', {
          current_password: outsider.user.password,
          password: 'plain password',
        })
      ).statusCode,
    ).toBe(200);
  });

  test('a sign-in lasts no longer than the session length of the environments', async () => {
    const { admin, member, environment } = await setting();
    await put(admin.client, `/api/environment/${environment.id}/security_policy`, policy);
    const { client, response } = await login(member.user.username, member.user.password);
    expect(response.statusCode).toBe(200);
    const session = await t.db
      .selectFrom('user_session')
      .select(['id', 'ends_at'])
      .where('user_id', '=', member.user.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const hours = (session.ends_at!.getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(7.9);
    expect(hours).toBeLessThanOrEqual(8);
    expect((await client.get('/api/user/security')).statusCode).toBe(200);
    await t.db
      .updateTable('user_session')
      .set({ ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', session.id)
      .execute();
    expect((await client.get('/api/user/security')).statusCode).toBe(401);
    // nor does its refresh token open it again
    expect((await client.post('/api/refresh_token')).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  test('the user lists their sessions and signs out everywhere else', async () => {
    const user = await buildUser(t.db);
    const laptop = await login(
      user.username,
      user.password,
      undefined,
      'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0',
    );
    const phone = await login(
      user.username,
      user.password,
      undefined,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1',
    );
    const list = await laptop.client.get('/api/user/session');
    expect(list.statusCode).toBe(200);
    const { results } = list.json() as {
      results: { id: number; user_agent: string; address: string; current: boolean; last_used_at: string }[];
    };
    expect(results).toHaveLength(2);
    expect(results.filter((s) => s.current)).toHaveLength(1);
    expect(results.find((s) => s.current)?.user_agent).toContain('Windows');
    expect(results.find((s) => !s.current)?.user_agent).toContain('iPhone');
    for (const s of results) expect(s.address).toMatch(/^10\.44\./);
    // another user's sessions are not listed
    const other = await t.signIn();
    expect(
      ((await other.client.get('/api/user/session')).json() as { results: unknown[] }).results,
    ).toHaveLength(1);

    const ended = await laptop.client.post('/api/user/session/end_others');
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ended: 1 });
    expect((await phone.client.get('/api/user/security')).statusCode).toBe(401);
    expect((await phone.client.post('/api/refresh_token')).statusCode).toBe(401);
    expect((await laptop.client.get('/api/user/security')).statusCode).toBe(200);
    expect(
      ((await laptop.client.get('/api/user/session')).json() as { results: unknown[] }).results,
    ).toHaveLength(1);
    // the other user's session is untouched
    expect((await other.client.get('/api/user/security')).statusCode).toBe(200);
  });
});
