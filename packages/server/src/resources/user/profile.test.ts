import { PASSWORD_MESSAGES, PROFILE_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const userRow = (id: number) =>
  t.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('PATCH /api/user/profile (the /profile screen)', () => {
  test('names with a preposition, mobile, language and presence are saved and answered', async () => {
    const { user, client } = await t.signIn();
    const response = await client.patch('/api/user/profile', {
      first_name: ' Vincent ',
      preposition: 'van',
      last_name: 'Gogh',
      email: `vincent_${user.id}@example.test`,
      mobile: ' +31 (0)6 123-456 78 ',
      locale: 'nl_NL',
      private_settings: { presence: 'busy' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const expected = {
      first_name: 'Vincent',
      preposition: 'van',
      last_name: 'Gogh',
      email: `vincent_${user.id}@example.test`,
      mobile: '+31 (0)6 123-456 78',
      locale: 'nl_NL',
    };
    expect(response.json()).toMatchObject({ ...expected, private_settings: { presence: 'busy' } });
    expect(await userRow(user.id)).toMatchObject(expected);
    expect((await client.get('/api/user/profile')).json()).toMatchObject(expected);

    // blank names and mobile are cleared
    const cleared = await client.patch('/api/user/profile', { preposition: '  ', mobile: '' });
    expect(cleared.json()).toMatchObject({ preposition: null, mobile: null, first_name: 'Vincent' });
  });

  test('each invalid field gets its own message, and nothing is saved', async () => {
    const { user, client } = await t.signIn();
    const response = await client.patch('/api/user/profile', {
      first_name: 'x'.repeat(101),
      preposition: 'y'.repeat(101),
      email: 'not an address',
      mobile: '12345',
      locale: 'pt_BR',
      private_settings: { presence: 'asleep' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      first_name: PROFILE_MESSAGES.nameLength,
      preposition: PROFILE_MESSAGES.nameLength,
      email: 'Invalid e-mail address',
      mobile: PROFILE_MESSAGES.mobile,
      locale: PROFILE_MESSAGES.locale,
      'private_settings.presence': expect.any(String),
    });
    for (const mobile of ['call me', '+31 6 1234 5678 9012 34', '06-1234', '+-()...']) {
      const refused = await client.patch('/api/user/profile', { mobile });
      expect(refused.json(), mobile).toEqual({ errors: { mobile: PROFILE_MESSAGES.mobile } });
    }
    const row = await userRow(user.id);
    expect(row).toMatchObject({ first_name: 'Test', preposition: null, mobile: null, locale: null });
    expect(row.email).toBe(user.email);
  });

  test("another account's e-mail address is refused, in any case; the own one is kept", async () => {
    const other = await buildUser(t.db);
    const { user, client } = await t.signIn();
    const taken = await client.patch('/api/user/profile', {
      email: other.email?.toUpperCase(),
      first_name: 'Changed',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ errors: { email: PROFILE_MESSAGES.emailTaken } });
    expect((await userRow(user.id)).first_name).toBe('Test');
    const own = await client.patch('/api/user/profile', { email: user.email?.toUpperCase() });
    expect(own.statusCode).toBe(200);
  });

  test('anonymous callers get 401 before the body is read', async () => {
    const response = await t.client().patch('/api/user/profile', { mobile: 'garbage' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).not.toHaveProperty('errors');
  });
});

describe('PATCH /api/user/change_password from the profile', () => {
  test('the old password is required, a wrong one is refused with its message, the right one changes it', async () => {
    const { user, client } = await t.signIn();
    const missing = await client.patch('/api/user/change_password', { password: 'a new password 1' });
    expect(missing.json()).toEqual({ errors: { current_password: REQUIRED_MESSAGE } });
    const wrong = await client.patch('/api/user/change_password', {
      current_password: 'not my password',
      password: 'a new password 1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ errors: { current_password: PASSWORD_MESSAGES.incorrect } });
    const right = await client.patch('/api/user/change_password', {
      current_password: user.password,
      password: 'a new password 1',
    });
    expect(right.statusCode, right.body).toBe(200);
    // the session goes on with the new password
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
    const signIn = await t.client().post('/api/login_check', {
      username: user.username,
      password: 'a new password 1',
    });
    expect(signIn.statusCode).toBe(200);
  });
});
