import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addMember, buildSubscription, buildUser, DEFAULT_PASSWORD } from '../../server/test/factories';
import { DEMO_PASSWORD, openBrowser, type Stack, screenshot, signIn, startStack } from './harness';

// A contract admin's subscription: its limits, what is used and until when, an order for other
// limits (a request: no payment provider), cancelled again; and the Expired modal's Renew button,
// which opens the subscription screen.

const DAY = 86_400_000;
let stack: Stack;
let holder: Awaited<ReturnType<typeof buildUser>>;
let lapsed: Awaited<ReturnType<typeof buildUser>>;

beforeAll(async () => {
  stack = await startStack();
  const demo = await stack.db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  holder = await buildUser(stack.db, { username: 'contract', roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
  lapsed = await buildUser(stack.db, { username: 'lapsed', roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
  for (const user of [holder, lapsed]) {
    await addMember(stack.db, demo.id, { user, credentials: ['environment-admin'] });
  }
  // the holder made the Demo environment, and has a running and an expired subscription
  await stack.db
    .updateTable('environment')
    .set({ created_by: holder.id })
    .where('id', '=', demo.id)
    .execute();
  await buildSubscription(stack.db, holder.id, 3, 200, 10);
  for (const user of [holder, lapsed]) {
    await stack.db
      .insertInto('subscription')
      .values({
        user_id: user.id,
        max_environments: 1,
        max_users: 5,
        starts_at: new Date(Date.now() - 400 * DAY),
        expires_at: new Date(Date.now() - 30 * DAY),
      })
      .execute();
  }
});
afterAll(() => stack?.close());

async function openDemo(page: Page, username: string) {
  await signIn(page, username, DEFAULT_PASSWORD);
  await page
    .getByTestId('environment-card')
    .filter({ hasText: 'Demo' })
    .getByTestId('environment-open')
    .click();
  await page.getByTestId('main-menu').waitFor();
}

test('a contract admin sees the subscription, orders other limits and cancels the order', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemo(page, 'contract');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-subscriptions').click();
    await page.getByTestId('subscriptions-page').waitFor();
    // Demo's members: admin, demo, contract and lapsed take seats
    await expect.poll(() => page.getByTestId('subscriptions-environments').textContent()).toContain('1 of 3');
    await expect.poll(() => page.getByTestId('subscriptions-users').textContent()).toContain('4 of 10');
    await page.getByTestId('subscriptions-expiry').waitFor();
    await page.getByTestId('subscriptions-orders-empty').waitFor();
    expect(await page.getByTestId('subscriptions-list').locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'subscriptions-en');

    await page.getByTestId('subscriptions-upgrade').click();
    await page.getByTestId('upgrade-page').waitFor();
    await expect.poll(() => page.getByTestId('upgrade-environments').inputValue()).toBe('3');
    await page.getByTestId('upgrade-environments').fill('5');
    await page.getByTestId('upgrade-users').fill('25');
    await page.getByTestId('upgrade-months').click();
    await page.getByRole('option', { name: '24' }).click();
    await page.getByTestId('upgrade-note').fill('PO 2026-114, contact: Finance');
    await screenshot(page, 'subscriptions-upgrade-en');
    await page.getByTestId('upgrade-submit').click();

    await page.waitForURL(/\/order\/\d+$/);
    await page.getByTestId('order-detail').waitFor();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('Requested');
    await page.getByTestId('subscription-no-payment').waitFor();
    const [order] = await stack.db
      .selectFrom('subscription_order')
      .selectAll()
      .where('user_id', '=', holder.id)
      .execute();
    expect(order).toMatchObject({ max_environments: 5, max_users: 25, months: 24, status: 'requested' });
    expect(page.url()).toMatch(new RegExp(`/order/${order.id}$`));
    await screenshot(page, 'subscriptions-order-en');

    // listed with the subscription, and cancelled from its page
    await page.getByTestId('subscriptions-back').click();
    await page.getByTestId(`subscriptions-order-${order.id}`).click();
    await page.getByTestId('order-cancel').click();
    await screenshot(page, 'subscriptions-order-cancel-en');
    await page.getByTestId('order-cancel-confirm').click();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('Cancelled');
    await expect.poll(() => page.getByTestId('order-cancel').count()).toBe(0);
    const cancelled = await stack.db
      .selectFrom('subscription_order')
      .select('status')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(cancelled.status).toBe('cancelled');

    // another's order, or none, is not found
    await page.goto('/order/999999');
    await page.getByTestId('order-not-found').waitFor();
  } finally {
    await close();
  }
});

test("in Dutch: an expired subscription's modal renews through the subscription screen", async () => {
  const { page, close } = await openBrowser(stack.baseUrl, { locale: 'nl-NL' });
  try {
    await openDemo(page, 'lapsed');
    await page.getByTestId('subscription-expired').waitFor();
    await screenshot(page, 'subscriptions-expired-modal-nl');
    await page.getByTestId('subscription-renew').click();
    await page.waitForURL('**/subscriptions');
    await page.getByTestId('subscriptions-none-running').waitFor();
    await expect.poll(() => page.getByTestId('subscriptions-page').textContent()).toContain('Bestellingen');
    await screenshot(page, 'subscriptions-nl');

    await page.getByTestId('subscriptions-upgrade').click();
    await page.getByTestId('upgrade-no-user-limit').check();
    await screenshot(page, 'subscriptions-upgrade-nl');
    await page.getByTestId('upgrade-submit').click();
    await page.getByTestId('order-detail').waitFor();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('Aangevraagd');
    await screenshot(page, 'subscriptions-order-nl');
    const orders = await stack.db
      .selectFrom('subscription_order')
      .select(['max_users', 'months'])
      .where('user_id', '=', lapsed.id)
      .execute();
    expect(orders).toEqual([{ max_users: null, months: 12 }]);
  } finally {
    await close();
  }
});

test('an ordinary member has no subscription screen', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    // an ordinary member of one environment lands in it without choosing
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-profile').waitFor();
    expect(await page.getByTestId('user-menu-subscriptions').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto('/subscriptions');
    await page.getByTestId('subscription-forbidden').waitFor();
  } finally {
    await close();
  }
});
