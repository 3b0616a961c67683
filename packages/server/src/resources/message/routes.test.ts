import { UNREAD_EVENT } from '@dossierbase/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildDossier, buildPermission } from '../../../test/entity-factories';
import {
  type AdminSetup,
  adminSetup,
  expectForbidden,
  expectNotFound,
} from '../../../test/entity-test-setup';
import { addMember, buildDefDossier, buildRole, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';

// /api/message (issue 21, part 3): sending to members of the environment, the inbox, reading and the
// unread count pushed to the recipient's sockets.

let t: TestApp;
let s: AdminSetup;
let env: number;
let adminId: number;
let contract: TestClient;
let dossier: number;
let hidden: number;

const send = (who: TestClient, body: Record<string, unknown>) =>
  who.post('/api/message', { environment: env, title: 'Hello', messageText: '<p>Hi there</p>', ...body });

const inbox = async (who: TestClient, query = '') => {
  const response = await who.get(`/api/message?environment=${env}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const unread = async (who: TestClient) =>
  (await who.get(`/api/message/unread/count?environment=${env}`)).json().total as number;

beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
  env = s.environment.id;
  adminId = (
    await t.db
      .selectFrom('environment_user')
      .select('user_id')
      .where('environment_id', '=', env)
      .where(sql<boolean>`'environment-admin' = any(credentials)`)
      .executeTakeFirstOrThrow()
  ).user_id;
  const c = await t.signIn({ roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
  await addMember(t.db, env, { user: c.user });
  contract = c.client;
  const role = await buildRole(t.db, env);
  await t.db
    .updateTable('environment_user')
    .set({ role_ids: [role.id] })
    .where('environment_id', '=', env)
    .where('user_id', '=', s.memberId)
    .execute();
  const shown = await buildDefDossier(t.db, env, { name: 'Client' });
  const secret = await buildDefDossier(t.db, env, { name: 'Secret' });
  await buildPermission(t.db, shown, role.id, ['show']);
  dossier = await buildDossier(t.db, shown, 'Alice');
  hidden = await buildDossier(t.db, secret, 'Secret plan');
});
afterAll(() => t?.close());

describe('POST /api/message', () => {
  test('sends a message about a dossier; the recipient reads it in the inbox and the count goes down', async () => {
    const pushed = vi.spyOn(t.app.realtime, 'toUser');
    const before = await unread(s.member);
    const sent = await send(s.admin, { users: [s.memberId], contentDossier: dossier, type: 'popup' });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().id;
    expect(pushed).toHaveBeenCalledWith(s.memberId, UNREAD_EVENT, { environment: env, total: before + 1 });
    expect(await unread(s.member)).toBe(before + 1);

    const incoming = await inbox(s.member, '&new=1&type=popup');
    expect(incoming.results[0]).toMatchObject({
      id,
      title: 'Hello',
      message_text: '<p>Hi there</p>',
      sender_id: adminId,
      type: 'popup',
      content_dossier_id: dossier,
      read_date: null,
      outgoing: false,
      recipients: [],
    });
    // reading it does not mark it read; the read call does, once
    expect((await s.member.get(`/api/message/${id}`)).json().read_date).toBeNull();
    const read = await s.member.post(`/api/message/${id}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ id, read_date: expect.any(String), total: before });
    expect(pushed).toHaveBeenLastCalledWith(s.memberId, UNREAD_EVENT, { environment: env, total: before });
    const again = await s.member.post(`/api/message/${id}/read`);
    expect(again.json().read_date).toBe(read.json().read_date);
    expect((await inbox(s.member, '&new=1')).results.map((m: { id: number }) => m.id)).not.toContain(id);

    // the sender sees it among the outgoing, with who read it
    const outgoing = await inbox(s.admin, '&filter=outgoing');
    expect(outgoing.results[0]).toMatchObject({ id, outgoing: true });
    expect(outgoing.results[0].recipients).toEqual([
      expect.objectContaining({ id: s.memberId, read_date: expect.any(String) }),
    ]);
    // the recipient replies; the sender finds it among the incoming
    const reply = await send(s.member, { users: [adminId], title: 'RE: Hello' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect((await inbox(s.admin)).results[0]).toMatchObject({ title: 'RE: Hello', sender_id: s.memberId });
    pushed.mockRestore();
  });

  test('a script in the HTML is stored cleaned', async () => {
    const sent = await send(s.admin, {
      users: [s.memberId],
      messageText: '<p onclick="alert(1)">Look<script>alert(1)</script><img src=x onerror=alert(1)></p>',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const stored = await t.db
      .selectFrom('message')
      .select('message_text')
      .where('id', '=', sent.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.message_text).not.toMatch(/script|onclick|onerror/);
    expect(stored.message_text).toContain('Look');
  });

  test('errors per field: recipients, title and message are required', async () => {
    const response = await s.member.post('/api/message', {
      environment: env,
      users: [],
      title: '  ',
      messageText: '<p> </p><script>x</script>',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      to: 'This is a required field',
      title: 'This is a required field',
      message: 'This is a required field',
    });
  });

  test('someone outside the environment is refused as a recipient', async () => {
    const stranger = await buildUser(t.db);
    const response = await send(s.admin, { users: [s.memberId, stranger.id] });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ to: 'Not a member of this environment' });
    // a member of the other environment neither
    const outsiderId = (
      await t.db
        .selectFrom('environment_user')
        .select('user_id')
        .where('environment_id', '=', s.otherEnvironment.id)
        .executeTakeFirstOrThrow()
    ).user_id;
    expect((await send(s.admin, { users: [outsiderId] })).json().errors).toEqual({
      to: 'Not a member of this environment',
    });
    // nor may the other environment's admin send into this one
    expectNotFound(await send(s.outsider, { users: [s.memberId] }), 'outsider');
  });

  test('the pop-up type is for admins and contract admins only', async () => {
    expectForbidden(await send(s.member, { users: [adminId], type: 'popup' }), 'member');
    expect((await send(contract, { users: [s.memberId], type: 'popup' })).statusCode).toBe(201);
    expect((await send(s.member, { users: [adminId], type: 'normal' })).statusCode).toBe(201);
  });

  test('a dossier the sender may not show cannot be attached', async () => {
    expectForbidden(await send(s.member, { users: [adminId], contentDossier: hidden }), 'hidden dossier');
    expectNotFound(await send(s.admin, { users: [s.memberId], contentDossier: 2_000_000_000 }), 'unknown');
  });
});

describe('reading messages', () => {
  test('only the sender and the recipients read a message; nobody else marks it', async () => {
    const sent = await send(s.admin, { users: [s.memberId] });
    const id = sent.json().id;
    expect((await s.admin.get(`/api/message/${id}`)).statusCode).toBe(200);
    expectNotFound(await contract.get(`/api/message/${id}`), 'another member');
    expectNotFound(await s.outsider.get(`/api/message/${id}`), 'outsider');
    expectNotFound(await contract.post(`/api/message/${id}/read`), 'another member marks');
    // the sender is no recipient
    expectNotFound(await s.admin.post(`/api/message/${id}/read`), 'sender marks');
    expect((await t.client().get(`/api/message/${id}`)).statusCode).toBe(401);
    // a member taken out of the environment reads none of it any more
    await t.db
      .deleteFrom('environment_user')
      .where('environment_id', '=', env)
      .where('user_id', '=', s.memberId)
      .execute();
    expectNotFound(await s.member.get(`/api/message/${id}`), 'removed member');
    await addMember(t.db, env, { user: { id: s.memberId } });
  });
});
