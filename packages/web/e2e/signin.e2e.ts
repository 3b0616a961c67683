import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { generateOtpCode, generateOtpSecret } from '../../server/src/auth/otp';
import { buildPermission } from '../../server/test/entity-factories';
import {
  addMember,
  buildDefDossier,
  buildEnvironment,
  buildRole,
  buildUser,
} from '../../server/test/factories';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  hrefsOf,
  openBrowser,
  type Stack,
  screenshot,
  signIn,
  startStack,
} from './harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

test('the admin signs in, opens the Demo environment and sees its shell', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto('/');
    await page.waitForURL('**/login');
    const submit = page.getByTestId('login-submit');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await page.getByTestId('login-username').fill('admin');
    await expect(submit.isDisabled()).resolves.toBe(true);
    await page.getByTestId('login-password').fill('wrong password');
    await expect(submit.isEnabled()).resolves.toBe(true);
    await submit.click();
    await expect(page.getByTestId('login-alert').textContent()).resolves.toContain(
      'Incorrect username or password',
    );

    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await screenshot(page, 'login');
    await submit.click();
    await page.waitForURL('**/environment');
    const card = page.getByTestId('environment-card').filter({ hasText: 'Demo' });
    await card.waitFor();
    await screenshot(page, 'environment-picker');

    await card.getByTestId('environment-info').click();
    const info = page.getByTestId('environment-info-modal');
    await expect(info.textContent()).resolves.toContain('A demonstration environment');
    await info.getByRole('button', { name: 'Open environment' }).click();

    await page.waitForURL(`${stack.baseUrl}/`);
    await expect(page.getByTestId('dashboard-environment-name').textContent()).resolves.toBe('Demo');
    const menu = page.getByTestId('main-menu');
    await expect(menu.textContent()).resolves.toContain('Clients');
    await expect(menu.textContent()).resolves.toContain('Cases');
    await page.getByTestId('menu-admin').waitFor();
    await page.getByTestId('menu-hidden').waitFor();
    await expect(page.getByTestId('shell-release').textContent()).resolves.toContain(
      stack.app.config.release,
    );
    await screenshot(page, 'shell-admin');
  } finally {
    await close();
  }
});

test('an ordinary user with one environment lands in it directly, without admin parts', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();
    await expect(page.getByTestId('main-menu').textContent()).resolves.toContain('Clients');
    await expect(page.getByTestId('menu-admin').count()).resolves.toBe(0);
    await expect(page.getByTestId('menu-hidden').count()).resolves.toBe(0);
  } finally {
    await close();
  }
});

test('a user with a one-time code signs in after giving it', async () => {
  const secret = generateOtpSecret();
  const user = await buildUser(stack.db, { otpSecret: secret });
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto('/login');
    await page.getByTestId('login-username').fill(user.username);
    await page.getByTestId('login-password').fill(user.password);
    await page.getByTestId('login-submit').click();
    const code = page.getByTestId('otp-code');
    await code.waitFor();
    await code.fill('12ab34');
    await expect(code.inputValue()).resolves.toMatch(/^\d*$/);
    await code.fill('000000');
    await page.getByTestId('otp-submit').click();
    await expect(page.getByTestId('login-alert').textContent()).resolves.toContain(
      'Incorrect verification code.',
    );
    await screenshot(page, 'otp-code');

    await code.fill(await generateOtpCode(secret));
    await page.getByTestId('otp-submit').click();
    await page.waitForURL('**/environment');
    await page.getByTestId('environment-empty').waitFor();
  } finally {
    await close();
  }
});

test('signing out from the user menu ends the session: a copy of its cookie no longer opens anything', async () => {
  const { page, context, browser, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();
    const cookies = await context.cookies();
    expect(cookies.map((cookie) => cookie.name)).toContain('dossierbase_token');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-logout').click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-username').waitFor();
    await screenshot(page, 'signed-out');

    // Someone who copied the cookies before the sign-out gets the login page, not the shell.
    const thief = await browser.newContext({ baseURL: stack.baseUrl });
    await thief.addCookies(cookies.filter((cookie) => cookie.name === 'dossierbase_token'));
    const profile = await thief.request.get('/api/user/profile');
    expect(profile.status()).toBe(401);
    const stolen = await thief.newPage();
    await stolen.goto('/');
    await stolen.waitForURL('**/login');
  } finally {
    await close();
  }
});

test('a deep link opened while signed out opens after signing in, with a password or a one-time code', async () => {
  const secret = generateOtpSecret();
  const plain = await buildUser(stack.db);
  const withCode = await buildUser(stack.db, { otpSecret: secret });
  const environment = await buildEnvironment(stack.db, { name: 'Deep links' });
  const role = await buildRole(stack.db, environment.id);
  for (const user of [plain, withCode])
    await addMember(stack.db, environment.id, { user, roleIds: [role.id] });
  const entity = await buildDefDossier(stack.db, environment.id, { name: 'Cases' });
  await buildPermission(stack.db, entity, role.id, ['show', 'create']);
  const deepLink = `/contentdossier/create/${entity.id}?multiAdd=1`;
  for (const user of [plain, withCode]) {
    const { page, close } = await openBrowser(stack.baseUrl);
    try {
      await page.goto(deepLink);
      await page.waitForURL('**/login');
      await page.getByTestId('login-username').fill(user.username);
      await page.getByTestId('login-password').fill(user.password);
      await page.getByTestId('login-submit').click();
      if (user === withCode) {
        await page.getByTestId('otp-code').fill(await generateOtpCode(secret));
        await page.getByTestId('otp-submit').click();
      }
      // The only environment opens by itself, at the page asked for (with its query).
      await page.getByTestId('dossier-multi-add-info').waitFor();
      expect(page.url()).toBe(`${stack.baseUrl}${deepLink}`);
    } finally {
      await close();
    }
  }
});

/** Opens each address and expects a screen of the product there, not the not-found page. */
async function expectScreens(page: Page, hrefs: string[]) {
  for (const href of hrefs) {
    await page.goto(href);
    await page.locator('[data-testid]').first().waitFor();
    expect({ href, notFound: await page.getByTestId('not-found-page').count() }).toEqual({
      href,
      notFound: 0,
    });
  }
}

test('the shell links only to screens that exist, has no empty favourites star, and keeps its menu on the not-found and error pages', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    // Signed out, an unknown path is the plain not-found page, not a sign-in.
    await page.goto('/no/such/page');
    await page.getByTestId('not-found-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/no/such/page');

    await signIn(page, 'admin', ADMIN_PASSWORD);
    const tools = page.getByTestId('environment-tools');
    const toolLinks: string[] = [];
    if (await tools.count()) {
      await tools.click();
      toolLinks.push(...(await hrefsOf(page, 'a[data-testid^="environment-tools-"]')));
    }
    await page
      .getByTestId('environment-card')
      .filter({ hasText: 'Demo' })
      .getByTestId('environment-open')
      .click();
    await page.getByTestId('main-menu').waitFor();
    expect(await page.getByTestId('shell-favourites-toggle').count()).toBe(0);
    await page.getByTestId('user-menu').click();
    await screenshot(page, 'shell-user-menu');
    // the Admin settings and user-menu links: every-screen.e2e.ts opens each, in English and Dutch
    await expectScreens(page, toolLinks);

    // Inside the shell the not-found page keeps the menu.
    await page.goto('/no/such/page');
    await page.getByTestId('not-found-page').waitFor();
    await page.getByTestId('main-menu').waitFor();
    await screenshot(page, 'not-found-in-shell');

    // So does the error page of a screen that fails to load.
    await page.goto('/');
    await page.getByTestId('main-menu').waitFor();
    await page.route(/\/assets\/dossier-list-page-[^/]*\.js$/, (route) => route.abort());
    await page.getByTestId('menu-entity').first().click();
    await page.getByTestId('error-page').waitFor();
    await page.getByTestId('main-menu').waitFor();
    await screenshot(page, 'error-in-shell');
  } finally {
    await close();
  }
});
