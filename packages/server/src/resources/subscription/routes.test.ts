import { MEMBER_MESSAGES, SUBSCRIPTION_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import { buildEnvironment, buildSubscription } from '../../../test/factories';
import { createTestAppWithMail, type MailTestApp } from '../../../test/test-app';

let t: MailTestApp;
beforeAll(async () => {
  // invitations send mail: to a real SMTP server of the test's own, not to a data directory
  t = await createTestAppWithMail();
});
afterAll(() => t.close());

const CONTRACT_ADMIN = ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'];
const ADMIN = ['environment-admin'];
const DAY = 86_400_000;

describe('GET /api/subscription', () => {
  test("the contract admin's subscriptions with their state, limits together and what is used", async () => {
    const holder = await t.signIn({ roles: CONTRACT_ADMIN });
    const running = await buildSubscription(t.db, holder.user.id, 3, 30, 10);
    const expired = await t.db
      .insertInto('subscription')
      .values({
        user_id: holder.user.id,
        max_environments: 1,
        max_users: 2,
        starts_at: new Date(Date.now() - 400 * DAY),
        expires_at: new Date(Date.now() - 35 * DAY),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const upcoming = await t.db
      .insertInto('subscription')
      .values({
        user_id: holder.user.id,
        max_environments: 5,
        max_users: null,
        starts_at: new Date(Date.now() + 20 * DAY),
        expires_at: new Date(Date.now() + 400 * DAY),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const colleague = await t.signIn();
    await buildEnvironment(t.db, {
      createdBy: holder.user,
      members: [{ user: holder.user, credentials: ADMIN }, { user: colleague.user }],
    });
    await buildEnvironment(t.db, {
      createdBy: holder.user,
      members: [{ user: holder.user, credentials: ADMIN }],
    });

    const answer = await holder.client.get('/api/subscription');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body.subscriptions.map((s: { id: number; state: string }) => [s.id, s.state])).toEqual([
      [upcoming.id, 'upcoming'],
      [running.id, 'running'],
      [expired.id, 'expired'],
    ]);
    expect(body.subscriptions[1]).toMatchObject({ max_environments: 3, max_users: 10 });
    expect(body.limits).toEqual({ max_environments: 3, max_users: 10 });
    expect(body.usage).toEqual({ environments: 2, users: 2 });
  });

  test('refused for anyone who holds no subscriptions: a member, an environment admin, anonymous', async () => {
    const member = await t.signIn();
    const admin = await t.signIn();
    await buildEnvironment(t.db, {
      members: [{ user: admin.user, credentials: ADMIN }, { user: member.user }],
    });
    for (const [who, client] of [
      ['member', member.client],
      ['environment admin', admin.client],
    ] as const) {
      expectForbidden(await client.get('/api/subscription'), `${who}: overview`);
      expectForbidden(await client.get('/api/order'), `${who}: orders`);
      expectForbidden(await client.get('/api/order/1'), `${who}: order`);
      expectForbidden(await client.post('/api/order', { max_environments: 1, max_users: 1, months: 1 }), who);
      expectForbidden(await client.post('/api/order/1/cancel', {}), `${who}: cancel`);
    }
    const anonymous = t.client();
    expect((await anonymous.get('/api/subscription')).statusCode).toBe(401);
    expect((await anonymous.get('/api/order')).statusCode).toBe(401);
    expect(
      (await anonymous.post('/api/order', { max_environments: 1, max_users: 1, months: 1 })).statusCode,
    ).toBe(401);
    expect(
      await t.db
        .selectFrom('subscription_order')
        .select('id')
        .where('user_id', 'in', [member.user.id, admin.user.id])
        .execute(),
    ).toEqual([]);
  });
});

describe('orders', () => {
  test('a contract admin orders other limits, lists, reads and cancels their own orders only', async () => {
    const holder = await t.signIn({ roles: CONTRACT_ADMIN });
    const other = await t.signIn({ roles: CONTRACT_ADMIN });
    const created = await holder.client.post('/api/order', {
      max_environments: 4,
      max_users: 25,
      months: 12,
      note: '  For the new team  ',
    });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json();
    expect(order).toMatchObject({
      max_environments: 4,
      max_users: 25,
      months: 12,
      note: 'For the new team',
      status: 'requested',
    });
    const second = (
      await holder.client.post('/api/order', { max_environments: 1, max_users: null, months: 1 })
    ).json();
    expect(second).toMatchObject({ max_users: null, note: '' });

    const list = await holder.client.get('/api/order?limit=1');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().pager).toEqual({ current: 0, pages: 2, items: 2, limit: 1 });
    expect(list.json().results.map((o: { id: number }) => o.id)).toEqual([second.id]);
    expect((await holder.client.get(`/api/order/${order.id}`)).json()).toEqual(order);

    // another contract admin sees none of it, and is told it does not exist
    expect((await other.client.get('/api/order')).json().results).toEqual([]);
    expectNotFound(await other.client.get(`/api/order/${order.id}`), 'other: read');
    expectNotFound(await other.client.post(`/api/order/${order.id}/cancel`, {}), 'other: cancel');

    const cancelled = await holder.client.post(`/api/order/${order.id}/cancel`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    const again = await holder.client.post(`/api/order/${order.id}/cancel`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: { status: SUBSCRIPTION_MESSAGES.orderNotOpen } });
  });

  test('an order asks for sensible limits', async () => {
    const holder = await t.signIn({ roles: CONTRACT_ADMIN });
    for (const [body, field] of [
      [{ max_environments: 0, max_users: 1, months: 1 }, 'max_environments'],
      [{ max_environments: 1.5, max_users: 1, months: 1 }, 'max_environments'],
      [{ max_environments: 1, max_users: 0, months: 1 }, 'max_users'],
      [{ max_environments: 1, max_users: 1, months: 5 }, 'months'],
      [{ max_environments: 1, max_users: 1 }, 'months'],
      [{ max_environments: 1, max_users: 1, months: 1, note: 'x'.repeat(2001) }, 'note'],
    ] as const) {
      const response = await holder.client.post('/api/order', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json().errors), JSON.stringify(body)).toEqual([field]);
    }
    expect(
      await t.db
        .selectFrom('subscription_order')
        .select('id')
        .where('user_id', '=', holder.user.id)
        .execute(),
    ).toEqual([]);
  });
});

describe("the subscription's user limit on invitations", () => {
  test('an invitation beyond the limit is refused as an environment beyond the limit is', async () => {
    const holder = await t.signIn({ roles: CONTRACT_ADMIN });
    await buildSubscription(t.db, holder.user.id, 1, 30, 2);
    const created = await holder.client.post('/api/environment', {
      name: 'Limited',
      description: 'Two seats',
    });
    expect(created.statusCode, created.body).toBe(201);
    const environment = created.json().id as number;
    // the second environment is beyond the subscription
    expect(
      (await holder.client.post('/api/environment', { name: 'More', description: 'No' })).statusCode,
    ).toBe(403);

    const first = await holder.client.post(`/api/environment/${environment}/member`, {
      email: `seat.one.${environment}@example.test`,
    });
    expect(first.statusCode, first.body).toBe(201);
    // the holder and the first take both seats
    const beyond = await holder.client.post(`/api/environment/${environment}/member`, {
      email: `seat.two.${environment}@example.test`,
    });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json()).toEqual({ message: MEMBER_MESSAGES.userLimit });
    const members = await t.db
      .selectFrom('environment_user')
      .select('user_id')
      .where('environment_id', '=', environment)
      .execute();
    expect(members).toHaveLength(2);
    const overview = (await holder.client.get('/api/subscription')).json();
    expect(overview.usage).toEqual({ environments: 1, users: 2 });
    expect(overview.limits).toEqual({ max_environments: 1, max_users: 2 });
  });
});
