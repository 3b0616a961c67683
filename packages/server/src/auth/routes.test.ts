import {
  CSRF_HEADER,
  FORBIDDEN_MESSAGE,
  LOGIN_MESSAGES,
  OTP_HEADER,
  REQUIRED_MESSAGE,
} from '@dossierbase/core';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addMember, buildEnvironment, buildUser } from '../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../test/test-app';
import { generateOtpCode, generateOtpSecret } from './otp';
import { sha256 } from './secret-tokens';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './session';

const TEST_SECRET = new TextEncoder().encode('test-secret-of-enough-length!!');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Every test signs in from an address of its own, so the per-address limit of one test
// never counts the failures of another.
let addressCounter = 0;
const freshAddress = () => {
  addressCounter += 1;
  return `10.1.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

interface LoginOptions {
  address?: string;
  otp?: string;
}

function postLogin(client: TestClient, payload: unknown, { address, otp }: LoginOptions = {}) {
  return client.request({
    method: 'POST',
    url: '/api/login_check',
    payload: payload as object,
    remoteAddress: address ?? freshAddress(),
    headers: otp === undefined ? {} : { [OTP_HEADER]: otp },
  });
}

function expectTokenData(
  body: unknown,
  user: { id: number; username: string; roles: string[] },
  rePwd = false,
) {
  const data = body as Record<string, unknown>;
  expect(data).toEqual({
    username: user.username,
    user_id: user.id,
    roles: user.roles,
    re_pwd: rePwd,
    iat: expect.any(Number),
    exp: expect.any(Number),
    abilities: {
      canCreateEnvironments: user.roles.includes('ROLE_ADMIN') || user.roles.includes('ROLE_CONTRACT_ADMIN'),
      canHoldSubscriptions: user.roles.includes('ROLE_CONTRACT_ADMIN'),
    },
  });
  const now = Math.floor(Date.now() / 1000);
  expect(Math.abs((data.iat as number) - now)).toBeLessThanOrEqual(5);
  expect((data.exp as number) - (data.iat as number)).toBe(t.config.tokenTtlSeconds);
}

async function signToken(
  claims: { sub: string; username: string; roles: string[]; sid?: number },
  { secret = TEST_SECRET, iat, exp }: { secret?: Uint8Array; iat: number; exp: number },
) {
  return new SignJWT({ username: claims.username, roles: claims.roles, re_pwd: false, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret);
}

const wrongOtp = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

describe('POST /api/login_check', () => {
  test('signs in: answers the token data and sets HttpOnly, SameSite=Lax session cookies', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    const response = await postLogin(client, { username: user.username, password: user.password });
    expect(response.statusCode).toBe(200);
    expectTokenData(response.json(), user);

    const access = response.cookies.find((c) => c.name === ACCESS_COOKIE);
    const refresh = response.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(access).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: t.config.tokenTtlSeconds,
    });
    expect(refresh).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/api',
      maxAge: t.config.refreshTtlSeconds,
    });
    // Only the hash of the refresh token is kept.
    const stored = await t.db
      .selectFrom('refresh_token')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(sha256(refresh!.value));
    expect(stored[0].token_hash).not.toBe(refresh!.value);

    const ttl = await client.get('/api/ttl_token');
    expect(ttl.statusCode).toBe(200);
    expect(ttl.json().ttl).toBeGreaterThan(t.config.tokenTtlSeconds - 10);
    expect(ttl.json().ttl).toBeLessThanOrEqual(t.config.tokenTtlSeconds);
  });

  test('the username is case-insensitive, the password is not', async () => {
    const user = await buildUser(t.db);
    const upper = await postLogin(t.client(), {
      username: user.username.toUpperCase(),
      password: user.password,
    });
    expect(upper.statusCode).toBe(200);
    expect(upper.json().user_id).toBe(user.id);

    const wrongCase = await postLogin(t.client(), {
      username: user.username,
      password: user.password.toUpperCase(),
    });
    expect(wrongCase.statusCode).toBe(401);
    expect(wrongCase.json()).toEqual({ message: LOGIN_MESSAGES.incorrect });
  });

  test('missing username and password: 400 with a message per field', async () => {
    const both = await postLogin(t.client(), {});
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({ errors: { username: REQUIRED_MESSAGE, password: REQUIRED_MESSAGE } });

    const noPassword = await postLogin(t.client(), { username: 'someone' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({ errors: { password: REQUIRED_MESSAGE } });

    const blank = await postLogin(t.client(), { username: '   ', password: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ errors: { username: REQUIRED_MESSAGE, password: REQUIRED_MESSAGE } });
    expect(blank.cookies).toEqual([]);
  });

  test('wrong password and unknown user: 401 with the same message, no cookies, attempt recorded', async () => {
    const user = await buildUser(t.db);
    const address = freshAddress();
    const wrong = await postLogin(
      t.client(),
      { username: user.username, password: 'not the password' },
      { address },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: LOGIN_MESSAGES.incorrect });
    expect(wrong.cookies).toEqual([]);

    const unknown = await postLogin(
      t.client(),
      { username: `nobody_${user.id}`, password: 'whatever' },
      { address },
    );
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: LOGIN_MESSAGES.incorrect });
    expect(unknown.cookies).toEqual([]);

    const attempts = await t.db
      .selectFrom('login_attempt')
      .select(['username', 'success'])
      .where('address', '=', address)
      .orderBy('id')
      .execute();
    expect(attempts).toEqual([
      { username: user.username, success: false },
      { username: `nobody_${user.id}`, success: false },
    ]);
  });

  test('an inactive user cannot sign in, even with the right password', async () => {
    const user = await buildUser(t.db, { active: false });
    const response = await postLogin(t.client(), { username: user.username, password: user.password });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: LOGIN_MESSAGES.incorrect });
    expect(response.cookies).toEqual([]);
  });

  test('without the CSRF header: 403 and nobody is signed in', async () => {
    const user = await buildUser(t.db);
    const client = t.client();
    client.csrf = false;
    const response = await postLogin(client, { username: user.username, password: user.password });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: `The ${CSRF_HEADER} header is required` });
    expect(response.cookies).toEqual([]);

    // A value other than XMLHttpRequest does not count.
    const wrongValue = await client.request({
      method: 'POST',
      url: '/api/login_check',
      payload: { username: user.username, password: user.password },
      headers: { [CSRF_HEADER]: 'fetch' },
    });
    expect(wrongValue.statusCode).toBe(403);
    expect(wrongValue.cookies).toEqual([]);
  });

  test('a user with two-factor sign-in: code required, wrong code refused, right code accepted', async () => {
    const secret = generateOtpSecret();
    const user = await buildUser(t.db, { otpSecret: secret });
    const credentials = { username: user.username, password: user.password };
    const address = freshAddress();

    const noCode = await postLogin(t.client(), credentials, { address });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toEqual({ message: LOGIN_MESSAGES.otpRequired, otp_required: true });
    expect(noCode.cookies).toEqual([]);

    const code = await generateOtpCode(secret);
    const wrong = await postLogin(t.client(), credentials, { address, otp: wrongOtp(code) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: LOGIN_MESSAGES.otpIncorrect, otp_required: true });
    expect(wrong.cookies).toEqual([]);

    const notDigits = await postLogin(t.client(), credentials, { address, otp: 'abcdef' });
    expect(notDigits.statusCode).toBe(401);
    expect(notDigits.json()).toEqual({ message: LOGIN_MESSAGES.otpIncorrect, otp_required: true });

    // A right code with a wrong password still gets the password message, not a code prompt.
    const wrongPassword = await postLogin(
      t.client(),
      { ...credentials, password: 'nope nope' },
      { address, otp: code },
    );
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ message: LOGIN_MESSAGES.incorrect });

    const client = t.client();
    const right = await postLogin(client, credentials, { address, otp: code });
    expect(right.statusCode).toBe(200);
    expectTokenData(right.json(), user);
    expect((await client.get('/api/user/profile')).json().id).toBe(user.id);
  });

  test('after 5 failures for one username, even the right password is refused with 429', async () => {
    const user = await buildUser(t.db);
    expect(t.config.loginMaxFailuresPerUser).toBe(5);
    for (let i = 0; i < 5; i++) {
      // Different addresses and letter case: the count is per username.
      const username = i % 2 ? user.username.toUpperCase() : user.username;
      const response = await postLogin(t.client(), { username, password: `wrong ${i}` });
      expect(response.statusCode).toBe(401);
    }
    const right = await postLogin(t.client(), { username: user.username, password: user.password });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ message: LOGIN_MESSAGES.tooMany });
    expect(right.cookies).toEqual([]);

    // Another user is not affected.
    const other = await buildUser(t.db);
    const otherLogin = await postLogin(t.client(), { username: other.username, password: other.password });
    expect(otherLogin.statusCode).toBe(200);
  });

  test('failures with wrong verification codes count towards the limit too', async () => {
    const secret = generateOtpSecret();
    const user = await buildUser(t.db, { otpSecret: secret });
    const credentials = { username: user.username, password: user.password };
    for (let i = 0; i < 5; i++) {
      const code = await generateOtpCode(secret);
      const response = await postLogin(t.client(), credentials, { otp: wrongOtp(code) });
      expect(response.statusCode).toBe(401);
    }
    const right = await postLogin(t.client(), credentials, { otp: await generateOtpCode(secret) });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ message: LOGIN_MESSAGES.tooMany });
  });

  test('a successful sign-in forgives earlier failures of that user', async () => {
    const user = await buildUser(t.db);
    for (let i = 0; i < 4; i++) {
      expect((await postLogin(t.client(), { username: user.username, password: 'wrong' })).statusCode).toBe(
        401,
      );
    }
    expect(
      (await postLogin(t.client(), { username: user.username, password: user.password })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await postLogin(t.client(), { username: user.username, password: 'wrong' })).statusCode).toBe(
        401,
      );
    }
    expect(
      (await postLogin(t.client(), { username: user.username, password: user.password })).statusCode,
    ).toBe(200);
  });

  test('the per-address limit stops guessing over many usernames', async () => {
    const limited = await createTestApp({ loginMaxFailuresPerAddress: 3 });
    try {
      const user = await buildUser(limited.db);
      const address = '192.0.2.7';
      for (let i = 0; i < 3; i++) {
        const response = await postLogin(
          limited.client(),
          { username: `guess_${i}_${user.id}`, password: 'guess' },
          { address },
        );
        expect(response.statusCode).toBe(401);
      }
      const blocked = await postLogin(
        limited.client(),
        { username: user.username, password: user.password },
        { address },
      );
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ message: LOGIN_MESSAGES.tooMany });

      // The same user from another address is fine: only the address is throttled.
      const elsewhere = await postLogin(
        limited.client(),
        { username: user.username, password: user.password },
        { address: '192.0.2.8' },
      );
      expect(elsewhere.statusCode).toBe(200);
      // And the success elsewhere does not forgive the guessing address.
      const stillBlocked = await postLogin(
        limited.client(),
        { username: user.username, password: user.password },
        { address },
      );
      expect(stillBlocked.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('session cookies', () => {
  test('GET /api/ttl_token without a cookie: 401', async () => {
    const response = await t.client().get('/api/ttl_token');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not signed in' });
  });

  async function openSession(userId: number) {
    return t.db
      .insertInto('user_session')
      .values({ user_id: userId, expires_at: new Date(Date.now() + 3_600_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  test('a token signed with the right secret for an open session is accepted (control for the forgeries below)', async () => {
    const user = await buildUser(t.db);
    const session = await openSession(user.id);
    const now = Math.floor(Date.now() / 1000);
    const client = t.client();
    client.cookies.set(
      ACCESS_COOKIE,
      await signToken(
        { sub: String(user.id), username: user.username, roles: user.roles, sid: session.id },
        { iat: now, exp: now + 600 },
      ),
    );
    const ttl = await client.get('/api/ttl_token');
    expect(ttl.statusCode).toBe(200);
    expect(ttl.json().ttl).toBeGreaterThan(590);
    expect((await client.get('/api/user/profile')).json().id).toBe(user.id);
  });

  test("a well-signed token without a session, or naming another user's or an ended session: 401", async () => {
    const user = await buildUser(t.db);
    const other = await buildUser(t.db);
    const othersSession = await openSession(other.id);
    const ended = await openSession(user.id);
    await t.db.deleteFrom('user_session').where('id', '=', ended.id).execute();
    const now = Math.floor(Date.now() / 1000);
    for (const sid of [undefined, othersSession.id, ended.id]) {
      const client = t.client();
      client.cookies.set(
        ACCESS_COOKIE,
        await signToken(
          { sub: String(user.id), username: user.username, roles: user.roles, sid },
          { iat: now, exp: now + 600 },
        ),
      );
      expect((await client.get('/api/user/profile')).statusCode, String(sid)).toBe(401);
    }
  });

  test('forged, garbage and unsigned tokens: 401', async () => {
    const admin = await buildUser(t.db, { roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: String(admin.id), username: admin.username, roles: admin.roles };
    const forged = await signToken(claims, {
      secret: new TextEncoder().encode('another-secret-of-enough-length'),
      iat: now,
      exp: now + 600,
    });
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, iat: now, exp: now + 600 })}.`;
    for (const token of [forged, 'garbage', unsigned, '']) {
      const client = t.client();
      client.cookies.set(ACCESS_COOKIE, token);
      const ttl = await client.get('/api/ttl_token');
      expect(ttl.statusCode, token).toBe(401);
      expect(ttl.json()).toEqual({ message: 'Not signed in' });
      const profile = await client.get('/api/user/profile');
      expect(profile.statusCode, token).toBe(401);
    }
  });

  test('an expired token (signed with the real secret): 401', async () => {
    const user = await buildUser(t.db);
    const now = Math.floor(Date.now() / 1000);
    const client = t.client();
    client.cookies.set(
      ACCESS_COOKIE,
      await signToken(
        { sub: String(user.id), username: user.username, roles: user.roles },
        { iat: now - 7200, exp: now - 60 },
      ),
    );
    expect((await client.get('/api/ttl_token')).statusCode).toBe(401);
    expect((await client.get('/api/user/profile')).statusCode).toBe(401);
  });

  test('an access token expires after tokenTtlSeconds', async () => {
    // 3 s, not 1: a token's iat is rounded down to the second, so a 1 s token could expire before a
    // busy machine answered the first call
    const short = await createTestApp({ tokenTtlSeconds: 3 });
    try {
      const user = await buildUser(short.db);
      const client = await short.client().login(user.username, user.password);
      expect((await client.get('/api/ttl_token')).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3100));
      const ttl = await client.get('/api/ttl_token');
      expect(ttl.statusCode).toBe(401);
      // The refresh cookie still renews the session.
      const refreshed = await client.post('/api/refresh_token');
      expect(refreshed.statusCode).toBe(200);
      expect((await client.get('/api/ttl_token')).statusCode).toBe(200);
    } finally {
      await short.close();
    }
  });

  test('the token of a user who was deactivated no longer opens the API', async () => {
    const user = await buildUser(t.db);
    const client = await t.client().login(user.username, user.password);
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
    await t.db.updateTable('app_user').set({ active: false }).where('id', '=', user.id).execute();
    const profile = await client.get('/api/user/profile');
    expect(profile.statusCode).toBe(401);
    const refresh = await client.post('/api/refresh_token');
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json()).toEqual({ message: 'Session expired' });
  });

  test('POST /api/refresh_token rotates the refresh token; the old one is refused afterwards', async () => {
    const user = await buildUser(t.db);
    const client = await t.client().login(user.username, user.password);
    const oldRefresh = client.cookies.get(REFRESH_COOKIE)!;
    const oldAccess = client.cookies.get(ACCESS_COOKIE)!;
    // Without the access cookie too: the refresh cookie alone renews the session.
    client.cookies.delete(ACCESS_COOKIE);

    const refreshed = await client.post('/api/refresh_token');
    expect(refreshed.statusCode).toBe(200);
    expectTokenData(refreshed.json(), user);
    const newRefresh = client.cookies.get(REFRESH_COOKIE);
    expect(newRefresh).toBeDefined();
    expect(newRefresh).not.toBe(oldRefresh);
    expect(client.cookies.get(ACCESS_COOKIE)).toBeDefined();
    expect(refreshed.cookies.find((c) => c.name === REFRESH_COOKIE)).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
    });
    expect((await client.get('/api/ttl_token')).statusCode).toBe(200);
    expect(oldAccess).toBeTruthy();

    const used = await t.db
      .selectFrom('refresh_token')
      .select('used_at')
      .where('token_hash', '=', sha256(oldRefresh))
      .executeTakeFirstOrThrow();
    expect(used.used_at).not.toBeNull();

    const thief = t.client();
    thief.cookies.set(REFRESH_COOKIE, oldRefresh);
    const replay = await thief.post('/api/refresh_token');
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: 'Session expired' });
    expect(thief.cookies.has(ACCESS_COOKIE)).toBe(false);

    // The rotated token keeps working.
    expect((await client.post('/api/refresh_token')).statusCode).toBe(200);
  });

  test('POST /api/refresh_token without or with an unknown refresh cookie: 401', async () => {
    const none = await t.client().post('/api/refresh_token');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: 'Session expired' });

    const client = t.client();
    client.cookies.set(REFRESH_COOKIE, 'made-up-refresh-token');
    const unknown = await client.post('/api/refresh_token');
    expect(unknown.statusCode).toBe(401);
  });

  test('an expired refresh token is refused', async () => {
    const user = await buildUser(t.db);
    const client = await t.client().login(user.username, user.password);
    await t.db
      .updateTable('refresh_token')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    expect((await client.post('/api/refresh_token')).statusCode).toBe(401);
  });

  test('POST /api/logout_cookie clears both cookies and revokes the refresh token', async () => {
    const user = await buildUser(t.db);
    const client = await t.client().login(user.username, user.password);
    const refresh = client.cookies.get(REFRESH_COOKIE)!;
    const access = client.cookies.get(ACCESS_COOKIE)!;

    const logout = await client.post('/api/logout_cookie');
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ message: 'Signed out' });
    const cleared = logout.cookies.map((c) => c.name).sort();
    expect(cleared).toEqual([ACCESS_COOKIE, REFRESH_COOKIE].sort());
    expect(client.cookies.size).toBe(0);

    expect((await client.get('/api/ttl_token')).statusCode).toBe(401);
    expect((await client.post('/api/refresh_token')).statusCode).toBe(401);

    // Both tokens are dead on the server, not only forgotten by the browser: a copy of the access
    // cookie taken before signing out no longer opens the API, though it has not expired.
    const replay = t.client();
    replay.cookies.set(REFRESH_COOKIE, refresh);
    expect((await replay.post('/api/refresh_token')).statusCode).toBe(401);
    const row = await t.db
      .selectFrom('refresh_token')
      .select('used_at')
      .where('token_hash', '=', sha256(refresh))
      .executeTakeFirst();
    expect(row?.used_at ?? 'deleted').not.toBeNull();
    const copied = t.client();
    copied.cookies.set(ACCESS_COOKIE, access);
    expect((await copied.get('/api/user/profile')).statusCode).toBe(401);
    expect((await copied.get('/api/ttl_token')).statusCode).toBe(401);
    expect((await copied.get('/api/environment')).statusCode).toBe(401);
  });

  test('a call about an environment is refused once the session is closed or the user deactivated', async () => {
    const environment = await buildEnvironment(t.db);
    const user = await buildUser(t.db);
    await addMember(t.db, environment.id, { user });
    // the sign-in read without an environment (then openEnvironment), and with it (favourites)
    const paths = [
      `/api/environment/${environment.id}`,
      `/api/contentdossier/favorites?environment=${environment.id}`,
    ];
    const client = await t.client().login(user.username, user.password);
    const access = client.cookies.get(ACCESS_COOKIE)!;
    expect((await client.get(paths[0])).json().name).toBe(environment.name);
    for (const path of paths) expect((await client.get(path)).statusCode).toBe(200);
    expect((await client.post('/api/logout_cookie')).statusCode).toBe(200);
    const copied = t.client();
    copied.cookies.set(ACCESS_COOKIE, access);
    for (const path of paths) expect((await copied.get(path)).statusCode).toBe(401);

    const again = await t.client().login(user.username, user.password);
    for (const path of paths) expect((await again.get(path)).statusCode).toBe(200);
    await t.db.updateTable('app_user').set({ active: false }).where('id', '=', user.id).execute();
    for (const path of paths) expect((await again.get(path)).statusCode).toBe(401);
  });

  test('signing out ends only that session: the same user signed in elsewhere stays signed in', async () => {
    const user = await buildUser(t.db);
    const laptop = await t.client().login(user.username, user.password);
    const phone = await t.client().login(user.username, user.password);
    expect((await laptop.post('/api/logout_cookie')).statusCode).toBe(200);
    expect((await phone.get('/api/user/profile')).statusCode).toBe(200);
    expect((await phone.post('/api/refresh_token')).statusCode).toBe(200);
    expect((await phone.get('/api/user/profile')).statusCode).toBe(200);
  });

  test('a refreshed access token belongs to the same session: signing out ends the old and the new', async () => {
    const user = await buildUser(t.db);
    const client = await t.client().login(user.username, user.password);
    const before = client.cookies.get(ACCESS_COOKIE)!;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a new iat makes a new token
    expect((await client.post('/api/refresh_token')).statusCode).toBe(200);
    const after = client.cookies.get(ACCESS_COOKIE)!;
    expect(after).not.toBe(before);
    const copy = t.client();
    copy.cookies.set(ACCESS_COOKIE, before);
    expect((await copy.get('/api/user/profile')).statusCode).toBe(200);
    await client.post('/api/logout_cookie');
    for (const token of [before, after]) {
      const replay = t.client();
      replay.cookies.set(ACCESS_COOKIE, token);
      expect((await replay.get('/api/user/profile')).statusCode).toBe(401);
    }
  });
});

describe('one-time login keys', () => {
  async function signedInAdmin() {
    const admin = await buildUser(t.db, { roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    return t.client().login(admin.username, admin.password);
  }

  test('a super admin gets a key and a URL for another user', async () => {
    const target = await buildUser(t.db);
    const admin = await signedInAdmin();
    const response = await admin.post(`/api/user/${target.id}/login_key`);
    expect(response.statusCode).toBe(200);
    const { key, url } = response.json();
    expect(typeof key).toBe('string');
    expect(key.length).toBeGreaterThanOrEqual(32);
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe('http://localhost:3000/login');
    expect(parsed.searchParams.get('username')).toBe(target.username);
    expect(parsed.searchParams.get('key')).toBe(key);
    const stored = await t.db.selectFrom('login_key').selectAll().where('user_id', '=', target.id).execute();
    expect(stored.map((r) => r.token_hash)).toEqual([sha256(key)]);
  });

  test('ordinary users and contract admins may not issue keys; signed out is 401', async () => {
    const target = await buildUser(t.db);
    for (const roles of [['ROLE_USER'], ['ROLE_USER', 'ROLE_CONTRACT_ADMIN']]) {
      const actor = await buildUser(t.db, { roles });
      const client = await t.client().login(actor.username, actor.password);
      const response = await client.post(`/api/user/${target.id}/login_key`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: FORBIDDEN_MESSAGE });
    }
    const anonymous = await t.client().post(`/api/user/${target.id}/login_key`);
    expect(anonymous.statusCode).toBe(401);
    expect(await t.db.selectFrom('login_key').selectAll().where('user_id', '=', target.id).execute()).toEqual(
      [],
    );
  });

  test('unknown or inactive user: 404; bad id: 400', async () => {
    const admin = await signedInAdmin();
    const unknown = await admin.post('/api/user/99999999/login_key');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found' });
    const inactive = await buildUser(t.db, { active: false });
    expect((await admin.post(`/api/user/${inactive.id}/login_key`)).statusCode).toBe(404);
    const bad = await admin.post('/api/user/abc/login_key');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.id).toBeTruthy();
  });

  test('the key signs the user in once and forces a new password', async () => {
    const target = await buildUser(t.db);
    const admin = await signedInAdmin();
    const { key } = (await admin.post(`/api/user/${target.id}/login_key`)).json();
    const body = { username: target.username, key };

    const client = t.client();
    const response = await client.post('/api/key_login_check', body);
    expect(response.statusCode).toBe(200);
    expectTokenData(response.json(), target, true);
    expect(client.cookies.has(ACCESS_COOKIE)).toBe(true);
    expect(client.cookies.has(REFRESH_COOKIE)).toBe(true);
    const row = await t.db
      .selectFrom('app_user')
      .select('force_password_update')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.force_password_update).toBe(true);
    const profile = await client.get('/api/user/profile');
    expect(profile.json()).toMatchObject({ id: target.id, re_pwd: true });

    const again = await t.client().post('/api/key_login_check', body);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ message: LOGIN_MESSAGES.keyIncorrect });
  });

  test('a key does not sign in another user', async () => {
    const target = await buildUser(t.db);
    const other = await buildUser(t.db);
    const admin = await signedInAdmin();
    const { key } = (await admin.post(`/api/user/${target.id}/login_key`)).json();
    const client = t.client();
    const response = await client.post('/api/key_login_check', { username: other.username, key });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: LOGIN_MESSAGES.keyIncorrect });
    expect(client.cookies.size).toBe(0);
    const row = await t.db
      .selectFrom('app_user')
      .select('force_password_update')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(row.force_password_update).toBe(false);
    // Tried with the wrong username, the key is not spent: its own user can still use it.
    const owner = await t.client().post('/api/key_login_check', { username: target.username, key });
    expect(owner.statusCode).toBe(200);
  });

  test('made-up and expired keys: 401', async () => {
    const target = await buildUser(t.db);
    const madeUp = await t
      .client()
      .post('/api/key_login_check', { username: target.username, key: 'made-up' });
    expect(madeUp.statusCode).toBe(401);
    expect(madeUp.json()).toEqual({ message: LOGIN_MESSAGES.keyIncorrect });

    const admin = await signedInAdmin();
    const { key } = (await admin.post(`/api/user/${target.id}/login_key`)).json();
    await t.db
      .updateTable('login_key')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', sha256(key))
      .execute();
    const expired = await t.client().post('/api/key_login_check', { username: target.username, key });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: LOGIN_MESSAGES.keyIncorrect });
  });

  test('missing parameters: 400', async () => {
    const none = await t.client().post('/api/key_login_check', {});
    expect(none.statusCode).toBe(400);
    expect(Object.keys(none.json().errors).sort()).toEqual(['key', 'username']);

    const empty = await t.client().post('/api/key_login_check', { username: 'someone', key: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ errors: { key: REQUIRED_MESSAGE } });
  });
});

describe('sign-out, refresh and key login change state only by POST with the CSRF header', () => {
  const usedAt = async (table: 'refresh_token' | 'login_key', token: string) =>
    (
      await t.db
        .selectFrom(table)
        .select('used_at')
        .where('token_hash', '=', sha256(token))
        .executeTakeFirstOrThrow()
    ).used_at;

  async function sessionAndKey() {
    const user = await buildUser(t.db);
    const client = await t.client().login(user.username, user.password);
    const admin = await buildUser(t.db, { roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const issuer = await t.client().login(admin.username, admin.password);
    const { key } = (await issuer.post(`/api/user/${user.id}/login_key`)).json();
    return { user, client, refresh: client.cookies.get(REFRESH_COOKIE)!, key: key as string };
  }

  async function expectUnchanged(
    { client, refresh, key }: Awaited<ReturnType<typeof sessionAndKey>>,
    visitor: TestClient,
  ) {
    expect(client.cookies.get(REFRESH_COOKIE)).toBe(refresh);
    expect(await usedAt('refresh_token', refresh)).toBeNull();
    expect(await usedAt('login_key', key)).toBeNull();
    expect(visitor.cookies.size).toBe(0);
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
  }

  test('GET answers 404: the session stays open, the refresh token unused, the key unspent', async () => {
    const setup = await sessionAndKey();
    for (const path of ['/api/logout_cookie', '/api/refresh_token']) {
      expect((await setup.client.get(path)).statusCode, path).toBe(404);
    }
    const visitor = t.client();
    const query = new URLSearchParams({ username: setup.user.username, key: setup.key });
    expect((await visitor.get(`/api/key_login_check?${query}`)).statusCode).toBe(404);
    await expectUnchanged(setup, visitor);
  });

  test('POST without X-Requested-With answers 403 and changes nothing', async () => {
    const setup = await sessionAndKey();
    setup.client.csrf = false;
    for (const path of ['/api/logout_cookie', '/api/refresh_token']) {
      expect((await setup.client.post(path)).statusCode, path).toBe(403);
    }
    setup.client.csrf = true;
    const visitor = t.client();
    visitor.csrf = false;
    const body = { username: setup.user.username, key: setup.key };
    expect((await visitor.post('/api/key_login_check', body)).statusCode).toBe(403);
    await expectUnchanged(setup, visitor);
    // With the header the same calls work.
    visitor.csrf = true;
    expect((await visitor.post('/api/key_login_check', body)).statusCode).toBe(200);
    expect((await setup.client.post('/api/logout_cookie')).statusCode).toBe(200);
    expect((await setup.client.get('/api/user/profile')).statusCode).toBe(401);
  });
});
