import { afterAll, beforeAll, expect, test } from 'vitest';
import { generateOtpCode, generateOtpSecret } from '../../server/src/auth/otp';
import { buildUser } from '../../server/test/factories';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
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
