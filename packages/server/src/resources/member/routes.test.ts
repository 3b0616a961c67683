import {
  ENVIRONMENT_CREDENTIALS,
  FORBIDDEN_MESSAGE,
  MEMBER_MESSAGES,
  PASSWORD_UPDATE_REQUIRED,
  REQUIRED_MESSAGE,
} from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import {
  addMember,
  buildDefDossier,
  buildEnvironment,
  buildRole,
  buildSubscription,
  buildUser,
} from '../../../test/factories';
import { freePort } from '../../../test/free-port';
import {
  createTestApp,
  createTestAppWithMail,
  type MailTestApp,
  type TestClient,
} from '../../../test/test-app';

let t: MailTestApp;
beforeAll(async () => {
  t = await createTestAppWithMail();
});
afterAll(() => t?.close());

const ADMIN = ['environment-admin'];
let emails = 0;
const newAddress = (name = 'colleague') => `${name}.${++emails}.${Date.now()}@example.test`;

/** An environment with a signed-in admin and a signed-in ordinary member (with a role). */
async function team(options: { createdBy?: { id: number } } = {}) {
  const admin = await t.signIn();
  const member = await t.signIn();
  const environment = await buildEnvironment(t.db, {
    createdBy: options.createdBy ?? null,
    members: [{ user: admin.user, credentials: ADMIN }],
  });
  const role = await buildRole(t.db, environment.id, 'Case workers');
  await addMember(t.db, environment.id, { user: member.user, credentials: ['export'], roleIds: [role.id] });
  return { environment, role, admin, member, url: `/api/environment/${environment.id}/member` };
}

const membership = (environmentId: number, userId: number) =>
  t.db
    .selectFrom('environment_user')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

function keyLink(text: string | undefined) {
  const match = /(\S+)\/login\?(username=\S+)/.exec(text ?? '');
  expect(match, text).not.toBeNull();
  const query = new URLSearchParams(match![2]);
  return { origin: match![1], username: query.get('username')!, key: query.get('key')! };
}

describe('GET /api/environment/:id/member', () => {
  test('the members with their state, roles and credentials, searched and paged', async () => {
    const { environment, role, admin, member, url } = await team();
    const away = await buildUser(t.db, { email: 'away.somebody@example.test' });
    await addMember(t.db, environment.id, { user: away, active: false });

    const all = await admin.client.get(`${url}?limit=2`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().pager).toEqual({ current: 0, pages: 2, items: 3, limit: 2 });
    const page2 = (await admin.client.get(`${url}?limit=2&page=1`)).json();
    const everyone = [...all.json().results, ...page2.results];
    expect(everyone.map((m: { id: number }) => m.id).sort()).toEqual(
      [admin.user.id, member.user.id, away.id].sort(),
    );
    expect(everyone.find((m: { id: number }) => m.id === member.user.id)).toEqual({
      id: member.user.id,
      username: member.user.username,
      email: member.user.email,
      first_name: 'Test',
      last_name: member.user.username,
      active: true,
      account_active: true,
      roles: [role.id],
      credentials: ['export'],
      global_roles: [],
      invitation_pending: false,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(everyone)).not.toMatch(/password|otp_secret|hash/);

    const byEmail = (await admin.client.get(`${url}?search=AWAY.SOMEBODY`)).json();
    expect(byEmail.results.map((m: { id: number }) => m.id)).toEqual([away.id]);
    const inactive = (await admin.client.get(`${url}?active=0`)).json();
    expect(inactive.results.map((m: { id: number }) => m.id)).toEqual([away.id]);
    const active = (await admin.client.get(`${url}?active=1`)).json();
    expect(active.pager.items).toBe(2);
    const wildcard = (await admin.client.get(`${url}?search=${encodeURIComponent('%')}`)).json();
    expect(wildcard.results).toEqual([]);
  });

  test('invalid paging and filters: 400 per parameter', async () => {
    const { admin, url } = await team();
    const response = await admin.client.get(`${url}?limit=0&page=-1&active=maybe`);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors).sort()).toEqual(['active', 'limit', 'page']);
    expect((await admin.client.get('/api/environment/abc/member')).statusCode).toBe(400);
  });
});

describe('GET /api/environment/:id/member/:userId', () => {
  test('one member, whether they are the last admin, and what the caller may change', async () => {
    const { environment, admin, member, url } = await team();
    const one = await admin.client.get(`${url}/${member.user.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({
      id: member.user.id,
      credentials: ['export'],
      last_admin: false,
      abilities: { canChangeGlobalRoles: false },
    });
    expect((await admin.client.get(`${url}/${admin.user.id}`)).json().last_admin).toBe(true);

    const superAdmin = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const seen = await superAdmin.client.get(`${url}/${admin.user.id}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().abilities).toEqual({ canChangeGlobalRoles: true });

    // not a member, or nobody: the same 404
    const stranger = await buildUser(t.db);
    expectNotFound(await admin.client.get(`${url}/${stranger.id}`), 'a user who is not a member');
    expectNotFound(await admin.client.get(`${url}/2147483000`), 'an unknown id');
    void environment;
  });
});

describe('POST /api/environment/:id/member (invite by e-mail)', () => {
  test('a new address gets an account and a one-time link that signs in and asks for a password', async () => {
    const { environment, role, admin, url } = await team();
    const email = newAddress();
    const response = await admin.client.post(url, {
      email: ` ${email} `,
      first_name: 'New',
      last_name: 'Colleague',
      roles: [role.id],
      credentials: ['quick_search'],
    });
    expect(response.statusCode, response.body).toBe(201);
    const { member, created, mailed } = response.json();
    expect(created).toBe(true);
    expect(mailed).toBe(true);
    expect(member).toMatchObject({
      username: email,
      email,
      first_name: 'New',
      last_name: 'Colleague',
      active: true,
      roles: [role.id],
      credentials: ['quick_search'],
      invitation_pending: true,
    });
    const account = await t.db
      .selectFrom('app_user')
      .selectAll()
      .where('id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ password_hash: null, force_password_update: true, roles: ['ROLE_USER'] });

    const mail = await t.smtp.waitForMail(email);
    expect(mail.subject).toBe(`You are invited to ${environment.name}`);
    expect(mail.text).toContain('expires in 7 days');
    const link = keyLink(mail.text);
    expect(link.origin).toBe('http://localhost:3000');
    expect(link.username).toBe(email);

    // The link signs in once; the new colleague must choose a password before anything else.
    const colleague = t.client();
    const signedIn = await colleague.post('/api/key_login_check', { username: link.username, key: link.key });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().re_pwd).toBe(true);
    const blocked = await colleague.get(`/api/environment/${environment.id}`);
    expect(blocked.json()).toEqual({ message: PASSWORD_UPDATE_REQUIRED });
    const changed = await colleague.patch('/api/user/change_password', { password: 'my own password 1' });
    expect(changed.statusCode, changed.body).toBe(200);
    const environments = (await colleague.get('/api/environment')).json();
    expect(environments.results.map((e: { id: number }) => e.id)).toEqual([environment.id]);
    const opened = await colleague.get(`/api/environment/${environment.id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().credentials).toEqual(['quick_search']);
    const again = await t.client().post('/api/key_login_check', { username: link.username, key: link.key });
    expect(again.statusCode).toBe(401);
    expect((await admin.client.get(`${url}/${member.id}`)).json().invitation_pending).toBe(false);
  });

  test('an existing account joins and is told so; a second invitation is refused', async () => {
    const { environment, admin, url } = await team();
    const existing = await buildUser(t.db, { email: newAddress('Existing') });
    const response = await admin.client.post(url, { email: existing.email!.toUpperCase() });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      created: false,
      mailed: true,
      member: { id: existing.id, username: existing.username, roles: [], credentials: [] },
    });
    const mail = await t.smtp.waitForMail(existing.email!);
    expect(mail.subject).toBe(`You now have access to ${environment.name}`);
    expect(mail.text).toContain(`Sign in as ${existing.username} at http://localhost:3000/login`);
    expect(mail.text).not.toMatch(/key=/);

    const twice = await admin.client.post(url, { email: existing.email });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ errors: { email: MEMBER_MESSAGES.alreadyMember } });
  });

  test('a disabled account, an address used as another username: 400 on the e-mail field, nothing added', async () => {
    const { environment, admin, url } = await team();
    const disabled = await buildUser(t.db, { email: newAddress('disabled'), active: false });
    const refused = await admin.client.post(url, { email: disabled.email });
    expect(refused.json()).toEqual({ errors: { email: MEMBER_MESSAGES.accountDisabled } });
    const address = newAddress('username');
    await buildUser(t.db, { username: address, email: null });
    const taken = await admin.client.post(url, { email: address });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ errors: { email: MEMBER_MESSAGES.usernameTaken } });
    expect(await membership(environment.id, disabled.id)).toBeUndefined();
  });

  test('a mail that cannot be sent leaves the new member, says so, and can be sent again', async () => {
    const noServer = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${await freePort()}` });
    try {
      const admin = await noServer.signIn();
      const environment = await buildEnvironment(noServer.db, {
        members: [{ user: admin.user, credentials: ADMIN }],
      });
      const url = `/api/environment/${environment.id}/member`;
      const response = await admin.client.post(url, { email: newAddress('unmailed') });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        created: true,
        mailed: false,
        member: { invitation_pending: true },
      });
      const again = await admin.client.post(`${url}/${response.json().member.id}/invitation`);
      expect(again.statusCode).toBe(500);
      expect(again.json()).toEqual({ message: 'Something went wrong' });
    } finally {
      await noServer.close();
    }
  });

  test('every field is validated with its own message', async () => {
    const { admin, url } = await team();
    const other = await buildEnvironment(t.db);
    const foreignRole = await buildRole(t.db, other.id);
    const cases: [unknown, Record<string, string>][] = [
      [{}, { email: REQUIRED_MESSAGE }],
      [{ email: '   ' }, { email: REQUIRED_MESSAGE }],
      [{ email: 'not an address' }, { email: 'Invalid e-mail address' }],
      [
        { email: newAddress(), credentials: ['root'] },
        { 'credentials.0': MEMBER_MESSAGES.unknownCredential },
      ],
      [{ email: newAddress(), roles: [foreignRole.id] }, { roles: `Unknown role ${foreignRole.id}` }],
      [{ email: newAddress(), roles: ['x'] }, { 'roles.0': 'Enter a valid id' }],
      [{ email: newAddress(), first_name: 'x'.repeat(101) }, { first_name: 'At most 100 characters' }],
    ];
    for (const [body, errors] of cases) {
      const response = await admin.client.post(url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toEqual({ errors });
    }
  });

  test("the subscription's user limit holds for invitations and activations, not for super admins", async () => {
    const holder = await t.signIn({ roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
    await buildSubscription(t.db, holder.user.id, 5, 30, 3);
    const { environment, admin, member, url } = await team({ createdBy: holder.user });
    // the holder works in a second environment of theirs, with someone else
    const second = await buildEnvironment(t.db, {
      createdBy: holder.user,
      members: [{ user: holder.user, credentials: ADMIN }],
    });
    // seats: admin, member, holder; the limit is 3
    const full = await admin.client.post(url, { email: newAddress('fourth') });
    expect(full.statusCode).toBe(403);
    expect(full.json()).toEqual({ message: MEMBER_MESSAGES.userLimit });
    // someone already seated in another of the holder's environments takes no new seat
    const joined = await admin.client.post(url, { email: holder.user.email });
    expect(joined.statusCode, joined.body).toBe(201);

    // a deactivated member frees their seat, and takes it again when activated
    expect((await admin.client.patch(`${url}/${member.user.id}`, { active: false })).statusCode).toBe(200);
    const fourth = await admin.client.post(url, { email: newAddress('fourth') });
    expect(fourth.statusCode, fourth.body).toBe(201);
    const back = await admin.client.patch(`${url}/${member.user.id}`, { active: true });
    expect(back.statusCode).toBe(403);
    expect(back.json()).toEqual({ message: MEMBER_MESSAGES.userLimit });
    expect((await membership(environment.id, member.user.id))?.active).toBe(false);

    const superAdmin = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const beyond = await superAdmin.client.post(url, { email: newAddress('fifth') });
    expect(beyond.statusCode, beyond.body).toBe(201);

    // without a user limit on one running subscription, there is none
    await buildSubscription(t.db, holder.user.id, 1, 30, null);
    const unlimited = await admin.client.post(`/api/environment/${second.id}/member`, {
      email: newAddress('sixth'),
    });
    expect(unlimited.statusCode).toBe(404); // the admin of the first is no member of the second
    const free = await holder.client.post(`/api/environment/${second.id}/member`, {
      email: newAddress('sixth'),
    });
    expect(free.statusCode, free.body).toBe(201);
  });
});

describe('PATCH /api/environment/:id/member/:userId', () => {
  test('roles and credentials change and count on the next call; unknown roles and credentials: 400', async () => {
    const { environment, role, admin, member, url } = await team();
    const entity = await buildDefDossier(t.db, environment.id, { name: 'Cases' });
    const other = await buildRole(t.db, environment.id, 'Managers');
    const response = await admin.client.patch(`${url}/${member.user.id}`, {
      roles: [other.id, other.id],
      credentials: ['environment-admin', 'brp', 'kedo.file.delete'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      roles: [other.id],
      credentials: ['environment-admin', 'brp', 'kedo.file.delete'],
      last_admin: false,
    });
    // the member is an admin of the environment now, on their very next call
    const entities = await member.client.get(`/api/defdossier?environment=${environment.id}`);
    expect(entities.statusCode, entities.body).toBe(200);
    expect(entities.json().results.map((e: { id: number }) => e.id)).toEqual([entity.id]);

    const foreign = await buildRole(t.db, (await buildEnvironment(t.db)).id);
    const bad = await admin.client.patch(`${url}/${member.user.id}`, { roles: [role.id, foreign.id] });
    expect(bad.json()).toEqual({ errors: { roles: `Unknown role ${foreign.id}` } });
    const badCredential = await admin.client.patch(`${url}/${member.user.id}`, {
      credentials: ['everything'],
    });
    expect(badCredential.json()).toEqual({ errors: { 'credentials.0': MEMBER_MESSAGES.unknownCredential } });
    const badActive = await admin.client.patch(`${url}/${member.user.id}`, { active: 'no' });
    expect(Object.keys(badActive.json().errors)).toEqual(['active']);
    expect((await membership(environment.id, member.user.id))?.role_ids).toEqual([other.id]);
    expect(ENVIRONMENT_CREDENTIALS).toContain('secureshare');
  });

  test("a deactivated member's open session is refused at once, and admitted again once activated", async () => {
    const { environment, admin, member, url } = await team();
    const entity = await buildDefDossier(t.db, environment.id);
    const before = await member.client.get(`/api/environment/${environment.id}`);
    expect(before.statusCode).toBe(200);

    const off = await admin.client.patch(`${url}/${member.user.id}`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    // the same session, next call: 403, whatever it asks for
    expectForbidden(await member.client.get(`/api/environment/${environment.id}`), 'environment');
    expectForbidden(
      await member.client.get(`/api/contentdossier?environment=${environment.id}&defDossier=${entity.id}`),
      'dossier list',
    );
    expectForbidden(await member.client.get(`/api/user?environment=${environment.id}`), 'colleagues');
    expect((await member.client.get('/api/environment')).json().results).toEqual([]);
    // their account still works elsewhere
    expect((await member.client.get('/api/user/profile')).statusCode).toBe(200);

    expect((await admin.client.patch(`${url}/${member.user.id}`, { active: true })).statusCode).toBe(200);
    expect((await member.client.get(`/api/environment/${environment.id}`)).statusCode).toBe(200);
  });

  test('the last active admin cannot be deactivated or demoted; with another admin they can', async () => {
    const { environment, admin, member, url } = await team();
    const self = `${url}/${admin.user.id}`;
    const demote = await admin.client.patch(self, { credentials: ['export'] });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toEqual({ errors: { credentials: MEMBER_MESSAGES.lastAdmin } });
    const deactivate = await admin.client.patch(self, { active: false });
    expect(deactivate.json()).toEqual({ errors: { active: MEMBER_MESSAGES.lastAdmin } });

    // a deactivated admin, or one whose account is disabled, does not count
    const dormant = await buildUser(t.db);
    await addMember(t.db, environment.id, { user: dormant, credentials: ADMIN, active: false });
    const disabled = await buildUser(t.db, { active: false });
    await addMember(t.db, environment.id, { user: disabled, credentials: ADMIN });
    expect((await admin.client.patch(self, { credentials: [] })).statusCode).toBe(400);
    expect((await membership(environment.id, admin.user.id))?.credentials).toEqual(ADMIN);

    // with a second active admin, the first may step down
    expect(
      (await admin.client.patch(`${url}/${member.user.id}`, { credentials: ['environment-admin'] }))
        .statusCode,
    ).toBe(200);
    const stepDown = await admin.client.patch(self, { credentials: ['export'] });
    expect(stepDown.statusCode, stepDown.body).toBe(200);
    // and is no admin on the next call; the new admin is the last one now
    expectForbidden(await admin.client.get(`${url}/${member.user.id}`), 'former admin');
    expect((await member.client.get(`${url}/${member.user.id}`)).json().last_admin).toBe(true);
  });
});

describe('DELETE /api/environment/:id/member/:userId', () => {
  test('a removed member cannot open the environment; the last admin cannot be removed', async () => {
    const { environment, admin, member, url } = await team();
    const last = await admin.client.delete(`${url}/${admin.user.id}`);
    expect(last.statusCode).toBe(400);
    expect(last.json()).toEqual({ errors: { id: MEMBER_MESSAGES.lastAdmin } });

    const removed = await admin.client.delete(`${url}/${member.user.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await membership(environment.id, member.user.id)).toBeUndefined();
    // the open session, next call: the environment is no longer theirs
    expectNotFound(await member.client.get(`/api/environment/${environment.id}`), 'removed member');
    expect((await member.client.get('/api/environment')).json().results).toEqual([]);
    // the account stays
    expect((await member.client.get('/api/user/profile')).statusCode).toBe(200);
    expectNotFound(await admin.client.delete(`${url}/${member.user.id}`), 'removed twice');
  });
});

describe('POST /api/environment/:id/member/:userId/invitation', () => {
  test('a new sign-in link for an invited member who never signed in; the old one stops working', async () => {
    const { admin, member, url } = await team();
    const email = newAddress('resend');
    const invited = (await admin.client.post(url, { email })).json().member;
    const first = keyLink((await t.smtp.waitForMail(email)).text);

    const resent = await admin.client.post(`${url}/${invited.id}/invitation`);
    expect(resent.statusCode, resent.body).toBe(204);
    const mails = t.smtp.messages.filter(
      (m) => m.subject?.startsWith('You are invited') && m.text?.includes(email),
    );
    expect(mails).toHaveLength(2);
    const second = keyLink(mails[1].text);
    expect(second.key).not.toBe(first.key);
    const old = await t.client().post('/api/key_login_check', { username: email, key: first.key });
    expect(old.statusCode).toBe(401);
    const fresh = await t.client().post('/api/key_login_check', { username: email, key: second.key });
    expect(fresh.statusCode).toBe(200);

    const chosen = await admin.client.post(`${url}/${member.user.id}/invitation`);
    expect(chosen.statusCode).toBe(400);
    expect(chosen.json()).toEqual({ errors: { id: MEMBER_MESSAGES.noInvitation } });
  });
});

describe('permissions of every member call', () => {
  test('refused for an ordinary member (403), an admin of another environment (404) and anonymous callers (401)', async () => {
    const { environment, admin, member, url } = await team();
    const outsider = await t.signIn();
    await buildEnvironment(t.db, { members: [{ user: outsider.user, credentials: ADMIN }] });
    const target = `${url}/${admin.user.id}`;
    const calls: [string, (client: TestClient) => ReturnType<TestClient['get']>][] = [
      ['list', (c) => c.get(url)],
      ['read', (c) => c.get(target)],
      ['invite', (c) => c.post(url, { email: newAddress('refused') })],
      ['change', (c) => c.patch(target, { credentials: [] })],
      ['remove', (c) => c.delete(target)],
      ['resend', (c) => c.post(`${target}/invitation`)],
    ];
    for (const [what, call] of calls) {
      expectForbidden(await call(member.client), `member: ${what}`);
      // authorised before the body is read: garbage gets the same answer
      expectNotFound(await call(outsider.client), `outsider: ${what}`);
      const anonymous = await call(t.client());
      expect(anonymous.statusCode, `anonymous: ${what}`).toBe(401);
    }
    const garbage = await member.client.patch(target, { credentials: 'all', active: 7 });
    expect(garbage.json()).toEqual({ message: FORBIDDEN_MESSAGE });
    // nothing changed
    expect((await membership(environment.id, admin.user.id))?.credentials).toEqual(ADMIN);
    expect((await membership(environment.id, member.user.id))?.active).toBe(true);
  });

  test("an admin cannot reach another environment's members through their own environment", async () => {
    const { admin, url } = await team();
    const other = await team();
    expectNotFound(await admin.client.get(`${url}/${other.member.user.id}`), 'read');
    expectNotFound(await admin.client.patch(`${url}/${other.member.user.id}`, { active: false }), 'change');
    expectNotFound(await admin.client.delete(`${url}/${other.member.user.id}`), 'remove');
    expectNotFound(await admin.client.get(other.url), 'list of the other');
    expect((await membership(other.environment.id, other.member.user.id))?.active).toBe(true);
  });
});
