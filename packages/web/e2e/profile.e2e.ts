import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { picture } from '../../server/test/images';
import { DEMO_PASSWORD, openBrowser, type Stack, screenshot, signIn, startStack } from './harness';

// The personal screens of a member (the demo user, no admin): Profile from the user menu (name,
// language, picture, password), Colleagues with a search and a colleague's profile, and Contact.
// Screens in English and in Dutch.

let stack: Stack;
let adminId: number;
let demoId: number;
beforeAll(async () => {
  stack = await startStack();
  const users = await stack.db.selectFrom('app_user').select(['id', 'username']).execute();
  adminId = users.find((u) => u.username === 'admin')?.id ?? 0;
  demoId = users.find((u) => u.username === 'demo')?.id ?? 0;
  // the Demo environment's own help desk, beside the platform's
  await stack.db
    .updateTable('environment')
    .set({ settings: { help_contact: 'servicedesk@demo.example' } })
    .where('name', '=', 'Demo')
    .execute();
});
afterAll(() => stack?.close());

async function openFromUserMenu(page: Page, entry: 'profile' | 'colleagues' | 'contact') {
  await page.getByTestId('user-menu').click();
  await page.getByTestId(`user-menu-${entry}`).click();
  await page.waitForURL(`**/${entry}`);
}

/** The success toast, then its closing: the next screenshot shows the page alone. */
async function expectSuccess(page: Page, text: string) {
  const toast = page.getByTestId('notification-success').filter({ hasText: text });
  await toast.waitFor();
  await toast.getByRole('button').click();
  await toast.waitFor({ state: 'detached' });
}

test('a member edits their profile, picture and password, finds a colleague and the contacts', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);

    // Profile, in English: a mobile number the schema refuses, then names and Dutch
    await openFromUserMenu(page, 'profile');
    await page.getByTestId('profile-page').waitFor();
    expect(await page.getByTestId('profile-first-name').inputValue()).toBe('Demo');
    expect(await page.getByTestId('profile-language').inputValue()).toBe('English');
    await screenshot(page, 'profile-en');
    await page.getByTestId('profile-mobile').fill('12345');
    await page.getByTestId('profile-save').click();
    await page.getByText('Enter a phone number of 8 to 15 digits, such as +31 6 12345678').waitFor();
    await screenshot(page, 'profile-invalid-en');
    await page.getByTestId('profile-mobile').fill('+31 6 12345678');
    await page.getByTestId('profile-first-name').fill('Vincent');
    await page.getByTestId('profile-preposition').fill('van');
    await page.getByTestId('profile-last-name').fill('Gogh');
    await page.getByTestId('profile-language').click();
    await page.getByRole('option', { name: 'Nederlands' }).click();
    await page.getByTestId('profile-save').click();
    // saved in the language of the moment, then the interface follows the chosen one
    await expectSuccess(page, 'Your profile has been saved');
    await page.getByRole('heading', { name: 'Profiel', exact: true }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('nl');
    await page.getByTestId('user-menu').click();
    await page.getByText('Vincent van Gogh').waitFor();
    await page.keyboard.press('Escape');

    // a picture made here, shown in the top bar at 64 pixels
    await page.getByTestId('profile-avatar-input').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await picture(320, 240),
    });
    await expectSuccess(page, 'Je foto is opgeslagen');
    const topBar = page.getByTestId('user-menu').locator('img');
    await topBar.waitFor();
    expect(await topBar.getAttribute('src')).toMatch(
      new RegExp(`^/images/user/${demoId}_[0-9a-z]+_64\\.webp$`),
    );
    await expect
      .poll(() => topBar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(64);
    const large = page.getByTestId('profile-avatar').locator('img');
    await expect.poll(() => large.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
    await screenshot(page, 'profile-nl');

    // the password: a wrong old one first, then the right one
    await page.getByTestId('password-change-current').fill('not my password');
    await page.getByTestId('password-change-password').fill('a new demo password');
    await page.getByTestId('password-change-repeat').fill('a new demo password');
    await page.getByTestId('password-change-submit').click();
    await page.getByText('Onjuist wachtwoord').waitFor();
    await screenshot(page, 'profile-password-wrong-nl');
    await page.getByTestId('password-change-current').fill(DEMO_PASSWORD);
    await page.getByTestId('password-change-submit').click();
    await expectSuccess(page, 'Je wachtwoord is gewijzigd');
    expect(await page.getByTestId('password-change-current').inputValue()).toBe('');

    // Colleagues: both members, then a search on the server, then a colleague's profile
    await openFromUserMenu(page, 'colleagues');
    await expect.poll(() => page.getByTestId('colleague-card').count()).toBe(2);
    const me = page.getByTestId('colleague-card').filter({ hasText: 'Vincent van Gogh' });
    expect(await me.getByTestId('presence-badge').getAttribute('data-presence')).toBe('online');
    expect(await me.locator('img').getAttribute('src')).toMatch(/_64\.webp$/);
    await screenshot(page, 'colleagues-nl');
    await page.getByTestId('colleagues-search').fill('administrator');
    await expect.poll(() => page.getByTestId('colleague-card').count()).toBe(1);
    await page.getByTestId('colleague-link').filter({ hasText: 'Demo Administrator' }).click();
    await page.waitForURL(`**/user/${adminId}`);
    expect(await page.getByTestId('colleague-name').textContent()).toBe('Demo Administrator');
    // the admin has not signed in: offline
    expect(await page.getByTestId('presence-badge').textContent()).toBe('Offline');
    await screenshot(page, 'colleague-profile-nl');

    // Contact: the help desk and the environment's admin with their address
    await openFromUserMenu(page, 'contact');
    const admin = page.getByTestId('contact-admin');
    await admin.waitFor();
    expect(await admin.getByTestId('contact-admin-email').getAttribute('href')).toBe(
      'mailto:admin@dossierbase.local',
    );
    expect(await page.getByTestId('contact-platform').textContent()).toContain(stack.app.config.helpContact);
    expect(await page.getByTestId('contact-environment').getByRole('link').getAttribute('href')).toBe(
      'mailto:servicedesk@demo.example',
    );
    await screenshot(page, 'contact-nl');

    // the same screens in English
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-en_GB').click();
    await page.getByRole('heading', { name: 'Contact', exact: true }).waitFor();
    await page.getByText('Administrators', { exact: true }).waitFor();
    await screenshot(page, 'contact-en');
    await openFromUserMenu(page, 'colleagues');
    await expect.poll(() => page.getByTestId('colleague-card').count()).toBe(2);
    await screenshot(page, 'colleagues-en');
    await page.getByTestId('colleague-link').filter({ hasText: 'Vincent van Gogh' }).click();
    await page.waitForURL(`**/user/${demoId}`);
    await page.getByTestId('colleague-profile').locator('img').waitFor();
    await screenshot(page, 'colleague-profile-en');
    await openFromUserMenu(page, 'profile');
    await page.getByTestId('profile-avatar').locator('img').waitFor();
    await screenshot(page, 'profile-avatar-en');
  } finally {
    await close();
  }
});

test('the new password signs in, the old one no longer does', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto('/login');
    await page.getByTestId('login-username').fill('demo');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByText('Incorrect username or password').waitFor();
    await signIn(page, 'demo', 'a new demo password', `${stack.baseUrl}/`);
  } finally {
    await close();
  }
});
