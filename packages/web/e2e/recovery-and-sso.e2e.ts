import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSecretToken } from '../../server/src/auth/secret-tokens';
import { buildPermission } from '../../server/test/entity-factories';
import {
  addMember,
  buildDefDossier,
  buildEnvironment,
  buildRole,
  buildUser,
} from '../../server/test/factories';
import { openBrowser, type Stack, screenshot, signIn, startStack } from './harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

test('forgot password: the mail arrives over SMTP and its link sets a new password', async () => {
  const user = await buildUser(stack.db, { email: 'forgetful@example.test' });
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto('/login');
    await page.getByTestId('login-forgot-link').click();
    await page.waitForURL('**/forgot_password');
    const form = page.getByTestId('forgot-form');
    await form.getByLabel('Username').fill(user.username);
    await form.getByLabel('E-mail').fill('forgetful@example.test');
    await form.getByRole('button').last().click();
    await expect(page.getByTestId('forgot-sent').textContent()).resolves.toContain('Check your mailbox');

    const mail = await stack.smtp.waitForMail('forgetful@example.test');
    const link = /https?:\/\/\S+\/reset_password\/[\w-]+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    const passwords = page.locator('input[type="password"]');
    await passwords.nth(0).fill('a brand new secret');
    await passwords.nth(1).fill('a brand new secret');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: /password/i }).click();
    // the form has a link to the sign-in too: follow the one the success message shows
    await page.getByTestId('reset-done').getByTestId('reset-login-link').click();

    await page.waitForURL('**/login');
    await page.getByTestId('login-username').fill(user.username);
    await page.getByTestId('login-password').fill('a brand new secret');
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/environment');

    // The link works once.
    await page.goto(link!);
    const invalid = page.getByTestId('reset-invalid');
    await invalid.waitFor();
    await expect(invalid.textContent()).resolves.toContain('This link is invalid or has expired.');
  } finally {
    await close();
  }
});

test('a key login elsewhere: the open session is sent to the password form until a new one is chosen', async () => {
  const user = await buildUser(stack.db);
  const environment = await buildEnvironment(stack.db, { name: 'Flagged', members: [{ user }] });
  const entity = await buildDefDossier(stack.db, environment.id, { name: 'Cases' });
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, user.username, user.password);
    // the only environment opens by itself
    await page.getByTestId('main-shell').waitFor();

    // Someone uses a login key of this user on another device: the server now wants a new password.
    const key = await createSecretToken(stack.db, 'login_key', user.id, 3600);
    const keyed = await stack.app.inject({
      method: 'POST',
      url: '/api/key_login_check',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { username: user.username, key },
    });
    expect(keyed.statusCode).toBe(200);

    // The next call of this browser answers 403 password_update_required: the form shows.
    await page.goto(`/defdossier/${entity.id}`);
    await page.getByTestId('password-update').waitFor();
    expect(new URL(page.url()).pathname).toBe('/environment');
    // Other pages lead back to it.
    await page.goto('/');
    await page.getByTestId('password-update').waitFor();
    await screenshot(page, 'password-update-required');

    await page.getByTestId('password-update-password').fill('chosen after the key');
    await page.getByTestId('password-update-repeat').fill('chosen after the key');
    await page.getByTestId('password-update-submit').click();
    await page.getByTestId('main-shell').waitFor();
  } finally {
    await close();
  }
  const signedIn = await stack.app.inject({
    method: 'POST',
    url: '/api/login_check',
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: { username: user.username, password: 'chosen after the key' },
  });
  expect(signedIn.statusCode).toBe(200);
});

test('Azure sign-in through the OpenID Connect provider lands on /azure and the environment page', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto('/login');
    await page.getByTestId('login-azure').click();
    await page.waitForURL(`${stack.oidc.issuer}/**`);
    await page.locator('input[name="login"]').fill('new.colleague@example.test');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    const consent = page.locator('input[name="prompt"][value="consent"]');
    if (await consent.count()) await page.locator('button[type="submit"]').click();

    await page.waitForURL('**/environment');
    const token = await page.evaluate(() => Object.entries(localStorage));
    expect(JSON.stringify(token)).toContain('new.colleague@example.test');
    expect(JSON.stringify(token)).toContain('ROLE_AZURE_USER');
    await page.getByTestId('environment-empty').waitFor();
    await screenshot(page, 'azure-landing');
  } finally {
    await close();
  }
});

/** Signs in at the test OpenID Connect provider as `login` (its e-mail address). */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL(`${stack.oidc.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  const consent = page.locator('input[name="prompt"][value="consent"]');
  if (await consent.count()) await page.locator('button[type="submit"]').click();
}

test('a failed Google sign-in comes back to the login page with a message that says why', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    // Google signs in only known people: an unknown address is sent back with an error code.
    await page.goto('/login');
    await page.getByTestId('login-google').click();
    await signInAtProvider(page, 'stranger@example.test');
    await page.waitForURL('**/login?error=sso_unknown_user');
    await expect(page.getByTestId('login-alert').textContent()).resolves.toBe(
      'There is no account with this e-mail address. Ask your administrator for access.',
    );
    await screenshot(page, 'login-sso-error');

    // An error the page does not know gets a general message; the parameter itself is never shown.
    await page.goto(`/login?${new URLSearchParams({ error: '<img src=x onerror=alert(1)>nonsense' })}`);
    const alert = page.getByTestId('login-alert');
    await expect(alert.textContent()).resolves.toBe('Signing in did not work. Please try again.');
    expect(await alert.locator('img').count()).toBe(0);
    await page.goto('/login?error=sso_failed');
    await expect(alert.textContent()).resolves.toContain('Signing in with Google or Microsoft did not work.');
  } finally {
    await close();
  }
});

test('a deep link opened while signed out survives the Azure sign-in round trip', async () => {
  const user = await buildUser(stack.db, { email: 'deep.linker@example.test' });
  const environment = await buildEnvironment(stack.db, { name: 'Deep SSO' });
  const role = await buildRole(stack.db, environment.id);
  await addMember(stack.db, environment.id, { user, roleIds: [role.id] });
  const entity = await buildDefDossier(stack.db, environment.id, { name: 'Cases' });
  await buildPermission(stack.db, entity, role.id, ['show', 'create']);
  const deepLink = `/contentdossier/create/${entity.id}?multiAdd=1`;
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto(deepLink);
    await page.waitForURL('**/login');
    await page.getByTestId('login-azure').click();
    await signInAtProvider(page, 'deep.linker@example.test');
    await page.getByTestId('dossier-multi-add-info').waitFor();
    expect(page.url()).toBe(`${stack.baseUrl}${deepLink}`);
  } finally {
    await close();
  }
});
