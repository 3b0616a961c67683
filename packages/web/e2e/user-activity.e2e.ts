import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  DEMO_PASSWORD,
  openBrowser,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  signIn,
  startStack,
} from './harness';

// User activity: the demo user signs in and works in the Demo environment; the admin opens Admin
// settings > User activity, finds the sign-ins of today and the demo user among the most active,
// changes the period with the keyboard, and reads the screen in Dutch.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

test('an admin reads sign-ins and active users per day and the most active members', async () => {
  const demo = await openBrowser(stack.baseUrl);
  try {
    // an ordinary member with one environment lands in it: a sign-in, and a day of activity
    await signIn(demo.page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await demo.page.getByTestId('main-menu').waitFor();
  } finally {
    await demo.close();
  }

  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('menu-admin').click();
    await page.getByTestId('menu-admin-user_activity').click();
    await page.waitForURL('**/useractivity');
    await page.getByTestId('activity-most-active').waitFor();
    // today: the demo user's and the admin's sign-ins, both active
    expect(await page.getByTestId('activity-total').textContent()).toBe('2');
    expect(await page.getByTestId('activity-busiest').textContent()).toMatch(/: 2 active$/);
    const rows = page.getByTestId('activity-user');
    expect(await rows.count()).toBe(2);
    expect(await page.getByTestId('activity-most-active').textContent()).toContain('Demo User');
    // the figures behind the chart, as a screen reader reads them: 30 days and a header row
    expect(await page.locator('table[aria-labelledby="activity-per-day"] tbody tr').count()).toBe(30);
    await screenshot(page, 'user-activity');

    // the period by keyboard: the segmented control is a radio group
    await page.getByRole('radio', { name: 'Last 30 days' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => page.locator('table[aria-labelledby="activity-per-day"] tbody tr').count())
      .toBe(7);

    // in Dutch
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-nl_NL').click();
    await page.getByRole('heading', { name: 'Gebruikersactiviteit' }).waitFor();
    await page.getByText('Meest actieve gebruikers').waitFor();
    await screenshot(page, 'user-activity-nl');
  } finally {
    await close();
  }
});
