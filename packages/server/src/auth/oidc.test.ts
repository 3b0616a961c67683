import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildUser } from '../../test/factories';
import { startOidcProvider, type TestOidc } from '../../test/oidc';
import { createTestApp, type TestApp, type TestClient } from '../../test/test-app';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './session';

const PUBLIC_URL = 'http://localhost:3000';
const callbackUrl = (provider: 'azure' | 'google') => `${PUBLIC_URL}/api/connect/${provider}/check`;

let provider: TestOidc;
let t: TestApp;
beforeAll(async () => {
  provider = await startOidcProvider([callbackUrl('azure'), callbackUrl('google')]);
  const settings = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
  };
  t = await createTestApp({ publicUrl: PUBLIC_URL, azure: settings, google: settings });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/**
 * Plays the browser at the provider: follows its redirects with its cookies and fills in the
 * development login form (and a consent form, should one appear). Answers the URL the provider
 * finally sends the browser back to.
 */
async function signInAtProvider(authorizationUrl: string, login: string, returnTo: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next: { url: string; method: 'GET' | 'POST'; body?: URLSearchParams } = {
    url: authorizationUrl,
    method: 'GET',
  };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      body: next.body,
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attributes.some((a) => {
        const [key, v] = a.trim().split('=');
        return key.toLowerCase() === 'expires' && new Date(v).getTime() < Date.now();
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location')!, next.url);
      if (location.href.startsWith(returnTo)) return location;
      next = { url: location.href, method: 'GET' };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`provider answered ${response.status}: ${html.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no form on the provider's page: ${html.slice(0, 500)}`);
    const body = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      body.set('login', login);
      body.set('password', 'any password');
    }
    next = { url: new URL(action.replaceAll('&amp;', '&'), next.url).href, method: 'POST', body };
  }
  throw new Error('the provider did not send the browser back');
}

/** Starts sign-in at our server, signs in at the provider and answers the callback's path and query. */
async function providerCallback(
  client: TestClient,
  which: 'azure' | 'google',
  login: string,
): Promise<string> {
  const start = await client.get(`/api/connect/${which}`);
  expect(start.statusCode).toBe(302);
  const authorization = new URL(start.headers.location as string);
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get('redirect_uri')).toBe(callbackUrl(which));
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(client.cookies.has('dossierbase_oidc')).toBe(true);
  const back = await signInAtProvider(authorization.href, login, callbackUrl(which));
  expect(back.searchParams.get('code')).toBeTruthy();
  return `${back.pathname}${back.search}`;
}

function landing(location: string) {
  const url = new URL(location, PUBLIC_URL);
  expect(url.pathname).toBe('/azure');
  return url.searchParams;
}

describe('Azure sign-in', () => {
  test('an unknown colleague gets an account with ROLE_AZURE_USER and a session', async () => {
    const login = `colleague_${Date.now()}`;
    const client = t.client();
    const callback = await providerCallback(client, 'azure', login);
    const response = await client.get(callback);
    expect(response.statusCode).toBe(302);
    const params = landing(response.headers.location as string);
    const email = `${login}@example.test`;
    expect(params.get('username')).toBe(email);
    expect(params.get('roles')).toBe('ROLE_AZURE_USER');
    const exp = Number(params.get('exp'));
    const iat = Number(params.get('iat'));
    expect(exp - iat).toBe(t.config.tokenTtlSeconds);

    const user = await t.db
      .selectFrom('app_user')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(params.get('id'))).toBe(user.id);
    expect(user).toMatchObject({
      username: email,
      roles: ['ROLE_AZURE_USER'],
      password_hash: null,
      first_name: 'Test',
      last_name: login,
    });

    // The state cookie is spent, the session cookies are set and work.
    expect(client.cookies.has('dossierbase_oidc')).toBe(false);
    expect(client.cookies.has(ACCESS_COOKIE)).toBe(true);
    expect(client.cookies.has(REFRESH_COOKIE)).toBe(true);
    expect((await client.get('/api/user/profile')).json()).toMatchObject({ id: user.id, username: email });

    // Signing in again finds the same account.
    const again = t.client();
    const second = await again.get(await providerCallback(again, 'azure', login));
    expect(Number(landing(second.headers.location as string).get('id'))).toBe(user.id);
    const count = await t.db.selectFrom('app_user').select('id').where('email', '=', email).execute();
    expect(count).toHaveLength(1);
  });

  test('a callback whose state was tampered with fails', async () => {
    const client = t.client();
    const callback = new URL(await providerCallback(client, 'azure', `tamper_${Date.now()}`), PUBLIC_URL);
    callback.searchParams.set('state', 'forged-state');
    const response = await client.get(`${callback.pathname}${callback.search}`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?error=sso_failed');
    expect(client.cookies.has(ACCESS_COOKIE)).toBe(false);
  });

  test('a callback without the state cookie, or for another provider, fails', async () => {
    const client = t.client();
    const callback = await providerCallback(client, 'azure', `nocookie_${Date.now()}`);
    const stranger = t.client();
    const withoutCookie = await stranger.get(callback);
    expect(withoutCookie.statusCode).toBe(302);
    expect(withoutCookie.headers.location).toBe('/login?error=sso_failed');
    expect(stranger.cookies.has(ACCESS_COOKIE)).toBe(false);

    const otherProvider = await client.get(callback.replace('/connect/azure/', '/connect/google/'));
    expect(otherProvider.headers.location).toBe('/login?error=sso_failed');
    expect(client.cookies.has(ACCESS_COOKIE)).toBe(false);
  });

  test('a code cannot be used twice', async () => {
    const client = t.client();
    const login = `twice_${Date.now()}`;
    const callback = await providerCallback(client, 'azure', login);
    const oidcCookie = client.cookies.get('dossierbase_oidc')!;
    expect((await client.get(callback)).headers.location).toMatch(/^\/azure\?/);

    const replay = t.client();
    replay.cookies.set('dossierbase_oidc', oidcCookie);
    const response = await replay.get(callback);
    expect(response.headers.location).toBe('/login?error=sso_failed');
    expect(replay.cookies.has(ACCESS_COOKIE)).toBe(false);
  });
});

describe('Google sign-in', () => {
  test('an unknown e-mail address gets no account', async () => {
    const login = `stranger_${Date.now()}`;
    const client = t.client();
    const response = await client.get(await providerCallback(client, 'google', login));
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?error=sso_unknown_user');
    expect(client.cookies.has(ACCESS_COOKIE)).toBe(false);
    const users = await t.db
      .selectFrom('app_user')
      .select('id')
      .where('email', '=', `${login}@example.test`)
      .execute();
    expect(users).toEqual([]);
  });

  test("a known user's e-mail signs that user in, whatever the letter case", async () => {
    const user = await buildUser(t.db, {
      email: `Known_${Date.now()}@Example.test`,
      roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'],
    });
    const client = t.client();
    const response = await client.get(await providerCallback(client, 'google', user.email!.toLowerCase()));
    expect(response.statusCode).toBe(302);
    const params = landing(response.headers.location as string);
    expect(Number(params.get('id'))).toBe(user.id);
    expect(params.get('username')).toBe(user.username);
    expect(params.get('roles')).toBe('ROLE_USER,ROLE_CONTRACT_ADMIN');
    expect((await client.get('/api/user/profile')).json().id).toBe(user.id);
  });

  test('an inactive user with that e-mail is not signed in', async () => {
    const user = await buildUser(t.db, { email: `inactive_${Date.now()}@example.test`, active: false });
    const client = t.client();
    const response = await client.get(await providerCallback(client, 'google', user.email!));
    expect(response.headers.location).toBe('/login?error=sso_unknown_user');
    expect(client.cookies.has(ACCESS_COOKIE)).toBe(false);
  });
});
