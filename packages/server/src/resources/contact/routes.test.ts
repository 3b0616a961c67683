import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addMember, buildEnvironment, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ helpContact: 'help@platform.example' });
});
afterAll(() => t?.close());

describe('GET /api/environment/:id/contact', () => {
  test("a member reads the help contacts and the environment's active admins with their e-mail", async () => {
    const [admin, member, outsider] = await Promise.all([t.signIn(), t.signIn(), t.signIn()]);
    const secondAdmin = await buildUser(t.db);
    const disabledAdmin = await buildUser(t.db, { active: false });
    const environment = await buildEnvironment(t.db, {
      members: [
        { user: admin.user, credentials: ['environment-admin', 'export'] },
        { user: member.user, credentials: ['export'] },
        { user: secondAdmin, credentials: ['environment-admin'] },
        { user: disabledAdmin, credentials: ['environment-admin'] },
      ],
    });
    const other = await buildEnvironment(t.db, {
      members: [{ user: outsider.user, credentials: ['environment-admin'] }],
    });
    await t.db
      .updateTable('environment')
      .set({ settings: { help_contact: ' Service desk, 020 123 4567 ' } })
      .where('id', '=', environment.id)
      .execute();

    const response = await member.client.get(`/api/environment/${environment.id}/contact`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      help_contact: 'help@platform.example',
      environment_contact: 'Service desk, 020 123 4567',
    });
    expect(body.admins.map((a: { id: number }) => a.id).sort()).toEqual(
      [admin.user.id, secondAdmin.id].sort(),
    );
    expect(body.admins.find((a: { id: number }) => a.id === admin.user.id)).toEqual({
      id: admin.user.id,
      username: admin.user.username,
      email: admin.user.email,
      profile: { first_name: 'Test', preposition: null, last_name: admin.user.username },
      environment_user_active: true,
      presence: 'online',
      avatar: null,
    });
    // nothing of another environment, and no ordinary member's address
    expect(response.body).not.toContain(outsider.user.email);
    expect(response.body).not.toContain(member.user.email);

    // an environment without a contact of its own
    const own = await outsider.client.get(`/api/environment/${other.id}/contact`);
    expect(own.json()).toMatchObject({ environment_contact: null, admins: [{ id: outsider.user.id }] });
  });

  test("another environment's admin and unknown environments get 404; anonymous callers 401", async () => {
    const [member, outsider] = await Promise.all([t.signIn(), t.signIn()]);
    const environment = await buildEnvironment(t.db, { members: [{ user: member.user }] });
    await buildEnvironment(t.db, {
      members: [{ user: outsider.user, credentials: ['environment-admin'] }],
    });
    for (const [client, url] of [
      [outsider.client, `/api/environment/${environment.id}/contact`],
      [member.client, '/api/environment/2147483000/contact'],
    ] as const) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found' });
    }
    expect((await member.client.get('/api/environment/abc/contact')).statusCode).toBe(400);
    const anonymous = await t.client().get(`/api/environment/${environment.id}/contact`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('@');
  });

  test('a member who joins later reads the same; one who leaves is refused', async () => {
    const [admin, member] = await Promise.all([t.signIn(), t.signIn()]);
    const environment = await buildEnvironment(t.db, {
      members: [{ user: admin.user, credentials: ['environment-admin'] }],
    });
    const url = `/api/environment/${environment.id}/contact`;
    expect((await member.client.get(url)).statusCode).toBe(404);
    await addMember(t.db, environment.id, { user: member.user });
    expect((await member.client.get(url)).json().admins).toHaveLength(1);
    await t.db.deleteFrom('environment_user').where('user_id', '=', member.user.id).execute();
    expect((await member.client.get(url)).statusCode).toBe(404);
  });
});
