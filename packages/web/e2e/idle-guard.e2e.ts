import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN_PASSWORD, openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

let stack: Stack;
beforeAll(async () => {
  // Shortened limit: the prompt opens 130 s before a 150 s limit, so every dial colour is reached.
  // Tokens of 10 minutes: five minutes after the lock one would be due for renewal.
  stack = await startStack({ idleLimitSeconds: 150, idlePromptSeconds: 130, tokenTtlSeconds: 600 });
});
afterAll(() => stack?.close());

test('the idle guard prompts with a colour-changing countdown, then locks the screen and ends the session', async () => {
  const { page, context, browser, close } = await openBrowser(stack.baseUrl);
  try {
    await page.clock.install();
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('menu-admin').click();
    await page.getByTestId('menu-admin-datastructures').click();
    await page.waitForURL('**/datastructure');
    const cookies = await context.cookies();

    await page.clock.fastForward(25_000);
    const prompt = page.getByTestId('idle-prompt');
    await prompt.waitFor();
    const dial = page.getByTestId('idle-dial');
    const colourAt = async () => dial.getAttribute('data-color');
    const first = await colourAt();

    await page.clock.fastForward(20_000); // about 105 s left
    const second = await colourAt();
    await page.clock.fastForward(50_000); // about 55 s left
    const third = await colourAt();
    await page.clock.fastForward(30_000); // about 25 s left
    const fourth = await colourAt();
    await screenshot(page, 'idle-prompt');
    expect(new Set([first, second, third, fourth]).size).toBe(4);

    const renewals: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/(ttl_token|refresh_token)$/.test(new URL(request.url()).pathname))
        renewals.push(request.url());
    });
    await page.clock.fastForward(30_000);
    await page.getByTestId('idle-locked').waitFor();
    await screenshot(page, 'idle-locked');

    // The lock ended the session on the server: a copy of its cookie opens nothing.
    const thief = await browser.newContext({ baseURL: stack.baseUrl });
    await thief.addCookies(cookies.filter((cookie) => cookie.name === 'dossierbase_token'));
    expect((await thief.request.get('/api/user/profile')).status()).toBe(401);
    // The session keeper has nothing left to renew, even when the token would be due.
    await page.clock.fastForward(5 * 60_000);
    await page.getByTestId('idle-locked').waitFor();
    expect(renewals).toEqual([]);

    // Signing in again, and a reload, show the login page; signing in leads back to the page.
    await page.getByTestId('idle-sign-in').click();
    await page.waitForURL('**/login');
    await page.reload();
    await page.getByTestId('login-username').waitFor();
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/environment');
    await page
      .getByTestId('environment-card')
      .filter({ hasText: 'Demo' })
      .getByTestId('environment-open')
      .click();
    await page.waitForURL('**/datastructure');
    await page.getByTestId('main-menu').waitFor();
  } finally {
    await close();
  }
});

test('activity during the prompt keeps the session', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.clock.install();
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.clock.fastForward(25_000);
    await page.getByTestId('idle-stay').click();
    await expect(page.getByTestId('idle-prompt').isVisible()).resolves.toBe(false);
    await page.clock.fastForward(15_000);
    await expect(page.getByTestId('idle-prompt').count()).resolves.toBe(0);
    await expect(page.getByTestId('idle-locked').count()).resolves.toBe(0);
  } finally {
    await close();
  }
});
