import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addMember, buildEnvironment } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';

// GET /api/environment/{id}/activity: sign-ins per day, members active per day and the most active
// members, for the environment's admins only, from the record the server keeps as people work.

let t: TestApp;
let environment: number;
let other: number;
let admin: { user: { id: number }; client: TestClient };
let member: { user: { id: number; username: string }; client: TestClient };
let outsider: { user: { id: number }; client: TestClient };

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  // each signIn starts a session: one sign-in recorded for each
  admin = await t.signIn();
  member = await t.signIn();
  outsider = await t.signIn();
  environment = (await buildEnvironment(t.db)).id;
  other = (await buildEnvironment(t.db)).id;
  await addMember(t.db, environment, { user: admin.user, credentials: ['environment-admin'] });
  await addMember(t.db, environment, { user: member.user });
  await addMember(t.db, other, { user: outsider.user, credentials: ['environment-admin'] });
});
afterAll(() => t.close());

const activity = (client: TestClient, id: number, days?: number) =>
  client.get(`/api/environment/${id}/activity${days ? `?days=${days}` : ''}`);

test('a call in the environment notes the member as active that day, once, and sign-ins count per day', async () => {
  // the member works in the environment twice today: one member-day
  expect((await member.client.get(`/api/environment/${environment}`)).statusCode).toBe(200);
  expect((await member.client.get(`/api/environment/${environment}`)).statusCode).toBe(200);
  // an earlier day's record, as the days before would have left it
  await t.db
    .insertInto('member_activity_day')
    .values({ environment_id: environment, day: daysAgo(3), user_id: member.user.id })
    .execute();
  await t.db
    .insertInto('sign_in')
    .values({ user_id: member.user.id, signed_in_at: new Date(`${daysAgo(3)}T12:00:00Z`) })
    .execute();

  const answer = await activity(admin.client, environment);
  expect(answer.statusCode, answer.body).toBe(200);
  const body = answer.json();
  expect(body.days).toHaveLength(30);
  expect(body.days.at(-1).day).toBe(today());
  const byDay = new Map(body.days.map((d: { day: string }) => [d.day, d]));
  // today: admin and member signed in (the outsider is no member); both worked in it
  expect(byDay.get(today())).toEqual({ day: today(), sign_ins: 2, active_users: 2 });
  expect(byDay.get(daysAgo(3))).toEqual({ day: daysAgo(3), sign_ins: 1, active_users: 1 });
  expect(byDay.get(daysAgo(2))).toEqual({ day: daysAgo(2), sign_ins: 0, active_users: 0 });

  expect(body.most_active[0]).toMatchObject({
    id: member.user.id,
    first_name: 'Test',
    active_days: 2,
    sign_ins: 2,
  });
  expect(body.most_active.map((u: { id: number }) => u.id)).toEqual([member.user.id, admin.user.id]);
});

test('the window is chosen in days (1 to 90); a day outside it is not counted', async () => {
  const lastTwo = (await activity(admin.client, environment, 2)).json();
  expect(lastTwo.days.map((d: { day: string }) => d.day)).toEqual([daysAgo(1), today()]);
  expect(lastTwo.most_active.find((u: { id: number }) => u.id === member.user.id)).toMatchObject({
    active_days: 1,
    sign_ins: 1,
  });
  for (const days of [0, 91, 'x']) {
    const refused = await admin.client.get(`/api/environment/${environment}/activity?days=${days}`);
    expect(refused.statusCode).toBe(400);
  }
});

test("an ordinary member gets 403, another environment's admin 404, an anonymous caller 401", async () => {
  expect((await activity(member.client, environment)).statusCode).toBe(403);
  expect((await activity(outsider.client, environment)).statusCode).toBe(404);
  expect((await activity(t.client(), environment)).statusCode).toBe(401);
  // the outsider's own environment answers, with their activity only
  const own = (await activity(outsider.client, other)).json();
  expect(own.most_active.map((u: { id: number }) => u.id)).toEqual([outsider.user.id]);
});

test('the record keeps 90 days: older member-days go when a new day is noted', async () => {
  const member2 = await t.signIn();
  await addMember(t.db, environment, { user: member2.user });
  await t.db
    .insertInto('member_activity_day')
    .values({ environment_id: environment, day: daysAgo(120), user_id: member2.user.id })
    .execute();
  expect((await member2.client.get(`/api/environment/${environment}`)).statusCode).toBe(200);
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from member_activity_day where environment_id = ${environment} and day < current_date - 90
  `.execute(t.db);
  expect(rows[0].n).toBe(0);
});
