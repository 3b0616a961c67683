import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminSetup } from '../../../test/entity-test-setup';
import { addMember, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/user', () => {
  test('members of the environment by name or id, to members only', async () => {
    const s = await adminSetup(t);
    const all = await s.member.get(`/api/user?environment=${s.environment.id}&limit=25`);
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect(body.pager.items).toBe(2);
    expect(body.results.map((u: { id: number }) => u.id)).toContain(s.memberId);
    expect(body.results[0]).toMatchObject({ profile: expect.any(Object), environment_user_active: true });
    expect(JSON.stringify(body)).not.toMatch(/password|otp|email/);

    const member = body.results.find((u: { id: number }) => u.id === s.memberId);
    const byName = (
      await s.member.get(`/api/user?environment=${s.environment.id}&name=${member.username.toUpperCase()}`)
    ).json();
    expect(byName.results.map((u: { id: number }) => u.id)).toEqual([s.memberId]);
    const byIds = (
      await s.admin.get(`/api/user?environment=${s.environment.id}&ids=${s.memberId},999999`)
    ).json();
    expect(byIds.results.map((u: { id: number }) => u.id)).toEqual([s.memberId]);
    const nothing = (
      await s.admin.get(
        `/api/user?environment=${s.environment.id}&name=${encodeURIComponent("%' or 1=1 --")}`,
      )
    ).json();
    expect(nothing.results).toEqual([]);

    expect((await s.outsider.get(`/api/user?environment=${s.environment.id}`)).statusCode).toBe(404);
    expect((await s.member.get(`/api/user?environment=${s.environment.id}&ids=1;drop`)).statusCode).toBe(400);
    expect((await s.member.get('/api/user')).statusCode).toBe(400);
    expect((await t.client().get(`/api/user?environment=${s.environment.id}`)).statusCode).toBe(401);
  });

  test('a member deactivated in the environment, or whose account is disabled, is listed as inactive', async () => {
    const s = await adminSetup(t);
    const deactivated = await buildUser(t.db);
    const disabled = await buildUser(t.db, { active: false });
    await addMember(t.db, s.environment.id, { user: deactivated, active: false });
    await addMember(t.db, s.environment.id, { user: disabled });
    const all = (await s.member.get(`/api/user?environment=${s.environment.id}`)).json();
    const state = Object.fromEntries(
      all.results.map((u: { id: number; environment_user_active: boolean }) => [
        u.id,
        u.environment_user_active,
      ]),
    );
    expect(state).toMatchObject({ [deactivated.id]: false, [disabled.id]: false, [s.memberId]: true });
    const active = (await s.member.get(`/api/user?environment=${s.environment.id}&active=1`)).json();
    expect(active.results.map((u: { id: number }) => u.id)).not.toContain(deactivated.id);
    expect(active.pager.items).toBe(2);
    const inactive = (await s.member.get(`/api/user?environment=${s.environment.id}&active=0`)).json();
    expect(inactive.results.map((u: { id: number }) => u.id).sort()).toEqual(
      [deactivated.id, disabled.id].sort(),
    );
  });
});

describe('GET /api/user: presence and avatar, as colleagues see them', () => {
  test('the chosen presence of a signed-in member; offline when invisible or signed in nowhere', async () => {
    const s = await adminSetup(t);
    const [busy, invisible, chooser] = await Promise.all([t.signIn(), t.signIn(), t.signIn()]);
    const absent = await buildUser(t.db);
    for (const user of [busy.user, invisible.user, chooser.user, absent]) {
      await addMember(t.db, s.environment.id, { user });
    }
    await busy.client.patch('/api/user/profile', { private_settings: { presence: 'busy' } });
    await invisible.client.patch('/api/user/profile', { private_settings: { presence: 'invisible' } });
    await chooser.client.patch('/api/user/profile', { private_settings: { presence: 'away' } });
    await chooser.client.post('/api/logout_cookie');
    await t.db
      .updateTable('app_user')
      .set({ preposition: 'van der', avatar_at: new Date(Date.UTC(2026, 0, 2)) })
      .where('id', '=', busy.user.id)
      .execute();

    const { results } = (await s.member.get(`/api/user?environment=${s.environment.id}&limit=50`)).json();
    const of = (id: number) => results.find((member: { id: number }) => member.id === id);
    expect(of(s.memberId).presence).toBe('online');
    expect(of(busy.user.id)).toMatchObject({
      presence: 'busy',
      profile: { first_name: 'Test', preposition: 'van der', last_name: busy.user.username },
      avatar: {
        small: `/images/user/${busy.user.id}_${Date.UTC(2026, 0, 2).toString(36)}_64.webp`,
        large: `/images/user/${busy.user.id}_${Date.UTC(2026, 0, 2).toString(36)}_200.webp`,
      },
    });
    expect(of(invisible.user.id).presence).toBe('offline');
    expect(of(chooser.user.id).presence).toBe('offline');
    expect(of(absent.id)).toMatchObject({ presence: 'offline', avatar: null });
    expect(JSON.stringify(results)).not.toMatch(/invisible|private_settings|mobile/);

    // the name search finds the full name with its preposition
    const found = await s.member.get(
      `/api/user?environment=${s.environment.id}&name=${encodeURIComponent(`Test van der ${busy.user.username}`)}`,
    );
    expect(found.json().results.map((member: { id: number }) => member.id)).toEqual([busy.user.id]);
  });
});
