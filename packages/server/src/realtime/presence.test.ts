import type { AddressInfo } from 'node:net';
import { type DossierPresence, PRESENCE_EVENTS } from '@dossierbase/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { joinedSocket, openSocket, type TestSocket } from '../../test/sockets';
import { createTestApp, type TestApp } from '../../test/test-app';
import { ACCESS_COOKIE } from '../auth/session';
import { type DossierSetup, dossierSetup, key } from '../resources/content-dossier/fixture';
import { PRESENCE_MESSAGES } from './presence';
import { attachRealtime } from './socket';

// Issue 19, point 7: who has a dossier open, from the sockets in its viewing room.

let t: TestApp;
let baseUrl: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({}, { beforeReady: async (app) => void (await attachRealtime(app)) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => t.close());

async function joined(client: DossierSetup['admin'], environmentId: number) {
  const s = await joinedSocket(baseUrl, client, environmentId);
  open.push(s);
  return s;
}

async function createOk(s: DossierSetup, name: string) {
  const response = await s.admin.post('/api/contentdossier', {
    defDossier: s.client.id,
    values: { [key(s.fields.name.item)]: name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const viewerIds = (p: DossierPresence) => p.viewers.map((v) => v.id).sort((a, b) => a - b);

/** The next presence that satisfies `ok` (earlier ones of a busy room are skipped). */
async function presenceUntil(s: TestSocket, ok: (p: DossierPresence) => boolean) {
  for (;;) {
    const p = await s.next<DossierPresence>(PRESENCE_EVENTS.presence);
    if (ok(p)) return p;
  }
}

describe('presence on a dossier', () => {
  test('two members who open the same dossier each see both; leaving and disconnecting are seen', async () => {
    const s = await dossierSetup(t);
    await s.grant(s.client, ['show']);
    const id = await createOk(s, 'Shared');
    const adminSocket = await joined(s.admin, s.environment.id);
    const memberSocket = await joined(s.member, s.environment.id);
    const adminUser = (await s.admin.get('/api/user/profile')).json() as { id: number };

    expect(await adminSocket.ask(PRESENCE_EVENTS.open, { dossier: id })).toEqual({ ok: true });
    expect(viewerIds(await adminSocket.next(PRESENCE_EVENTS.presence))).toEqual([adminUser.id]);
    expect(await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: String(id) })).toEqual({ ok: true });
    const both = [adminUser.id, s.memberId].sort((a, b) => a - b);
    const seenByAdmin = await presenceUntil(adminSocket, (p) => p.viewers.length === 2);
    expect(viewerIds(seenByAdmin)).toEqual(both);
    expect(seenByAdmin.dossierId).toBe(id);
    const member = seenByAdmin.viewers.find((v) => v.id === s.memberId);
    expect(member).toMatchObject({ id: s.memberId, avatar: null });
    expect(member?.name).toBeTruthy();
    expect(viewerIds(await presenceUntil(memberSocket, (p) => p.viewers.length === 2))).toEqual(both);

    // the member leaves (dossier:exit): the admin sees only themself
    expect(await memberSocket.ask(PRESENCE_EVENTS.exit, { dossier: id })).toEqual({ ok: true });
    expect(viewerIds(await adminSocket.next(PRESENCE_EVENTS.presence))).toEqual([adminUser.id]);
    // the member opens it again and then closes the browser: gone again
    await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: id });
    await presenceUntil(adminSocket, (p) => p.viewers.length === 2);
    memberSocket.close();
    expect(viewerIds(await adminSocket.next(PRESENCE_EVENTS.presence))).toEqual([adminUser.id]);
  });

  test('opening another dossier leaves the first; a user who chose invisible is not shown', async () => {
    const s = await dossierSetup(t);
    await s.grant(s.client, ['show']);
    const first = await createOk(s, 'First');
    const second = await createOk(s, 'Second');
    const adminSocket = await joined(s.admin, s.environment.id);
    const memberSocket = await joined(s.member, s.environment.id);
    await adminSocket.ask(PRESENCE_EVENTS.open, { dossier: first });
    await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: first });
    await presenceUntil(adminSocket, (p) => p.viewers.length === 2);
    await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: second });
    expect(viewerIds(await presenceUntil(adminSocket, (p) => p.viewers.length === 1))).not.toContain(
      s.memberId,
    );

    await t.db
      .updateTable('app_user')
      .set({ private_settings: { presence: 'invisible' } })
      .where('id', '=', s.memberId)
      .execute();
    await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: first });
    const seen = await adminSocket.next<DossierPresence>(PRESENCE_EVENTS.presence);
    expect(viewerIds(seen)).not.toContain(s.memberId);
  });

  test('refused: no session, another environment, no show permission, an invalid id, no room joined', async () => {
    const s = await dossierSetup(t);
    const id = await createOk(s, 'Private');
    // no session: no connection at all
    await expect(openSocket(baseUrl, undefined)).rejects.toThrow('Not signed in');

    // another environment's admin, in their own room
    const outsider = await joined(s.outsider, s.otherEnvironment.id);
    expect(await outsider.ask(PRESENCE_EVENTS.open, { dossier: id })).toEqual({
      ok: false,
      message: 'Not found',
    });
    // a member without the show permission on the entity
    const member = await joined(s.member, s.environment.id);
    expect(await member.ask(PRESENCE_EVENTS.open, { dossier: id })).toMatchObject({ ok: false });
    for (const payload of [{ dossier: 'x' }, { dossier: -1 }, null, { dossier: '99999999999999999' }])
      expect(await member.ask(PRESENCE_EVENTS.open, payload), JSON.stringify(payload)).toEqual({
        ok: false,
        message: PRESENCE_MESSAGES.invalid,
      });
    // an admin whose socket joined no room yet
    const admin = await openSocket(baseUrl, s.admin.cookies.get(ACCESS_COOKIE));
    open.push(admin);
    expect(await admin.ask(PRESENCE_EVENTS.open, { dossier: id })).toEqual({
      ok: false,
      message: PRESENCE_MESSAGES.noRoom,
    });
    expect((await t.app.realtime.usersIn(s.environment.id)).has(s.memberId)).toBe(true);
  });

  test('a member who is deactivated leaves the dossiers they had open, and the others see it', async () => {
    const s = await dossierSetup(t);
    await s.grant(s.client, ['show']);
    const id = await createOk(s, 'Watched');
    const adminSocket = await joined(s.admin, s.environment.id);
    const memberSocket = await joined(s.member, s.environment.id);
    await adminSocket.ask(PRESENCE_EVENTS.open, { dossier: id });
    await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: id });
    await presenceUntil(adminSocket, (p) => p.viewers.length === 2);
    const url = `/api/environment/${s.environment.id}/member/${s.memberId}`;
    expect((await s.admin.patch(url, { active: false })).statusCode).toBe(200);
    const after = await presenceUntil(adminSocket, (p) => p.viewers.length === 1);
    expect(viewerIds(after)).not.toContain(s.memberId);
    expect(await memberSocket.ask(PRESENCE_EVENTS.open, { dossier: id })).toMatchObject({ ok: false });
  });
});
