import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSecretToken } from '../../server/src/auth/secret-tokens';
import { addMember, buildEnvironment, buildSubscription, buildUser } from '../../server/test/factories';
import { ADMIN_PASSWORD, openBrowser, type Stack, screenshot, signIn, startStack } from './harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** A real 2x2 PNG, built here so the upload is an image the server accepts on its bytes. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 255, 0, 255, 255, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the admin creates an environment with a logo and a language, finds it and opens it', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.getByTestId('environment-new').click();
    const modal = page.getByTestId('new-environment-modal');
    await page.getByTestId('new-environment-submit').click();
    await expect(modal.textContent()).resolves.toContain('This is a required field');

    await page.getByTestId('new-environment-name').fill('Acme Care');
    await page.getByTestId('new-environment-description').fill('Care cases of Acme');
    await modal
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng() });
    await page.getByTestId('new-environment-submit').click();
    // Without a language the form stays open and says so.
    await page.getByTestId('new-environment-tab-languages').click();
    await expect(page.getByTestId('new-environment-languages').textContent()).resolves.toContain(
      'Select at least 1 language',
    );
    await page.getByTestId('new-environment-language-nl_NL').click();
    await screenshot(page, 'new-environment');
    await page.getByTestId('new-environment-submit').click();

    const card = page.getByTestId('environment-card').filter({ hasText: 'Acme Care' });
    await card.waitFor();
    const stored = await stack.db
      .selectFrom('environment')
      .select(['id', 'logo_mime'])
      .where('name', '=', 'Acme Care')
      .executeTakeFirstOrThrow();
    expect(stored.logo_mime).toBe('image/png');
    const locales = await stack.db
      .selectFrom('environment_locale')
      .innerJoin('locale', 'locale.id', 'environment_locale.locale_id')
      .select('locale.code')
      .where('environment_id', '=', stored.id)
      .execute();
    expect(locales.map((l) => l.code)).toEqual(['nl_NL']);

    await page.getByTestId('environment-search').fill('acme');
    await expect.poll(() => page.getByTestId('environment-card').count(), { timeout: 5000 }).toBe(1);

    await card.getByTestId('environment-info').click();
    const info = page.getByTestId('environment-info-modal');
    await expect(info.textContent()).resolves.toContain('admin');
    await page.getByTestId('environment-info-open').click();
    await page.waitForURL(`${stack.baseUrl}/`);
    await expect(page.getByTestId('shell-environment-name').textContent()).resolves.toBe('Acme Care');
    await page.getByTestId('shell-logo').waitFor();
    await page.getByTestId('menu-no-entities').waitFor();

    // on a small screen the menu is closed; the burger opens it and a choice in it closes it again;
    // back on a wide screen the menu is as it was there (open)
    const shell = page.getByTestId('main-shell');
    const menuOpen = () => shell.getAttribute('data-menu-open');
    await page.setViewportSize({ width: 500, height: 800 });
    await expect.poll(menuOpen).toBe('false');
    await page.getByTestId('menu-toggle').click();
    await expect.poll(menuOpen).toBe('true');
    // in full view once it has slid in
    await expect
      .poll(async () => (await page.getByTestId('main-menu').boundingBox())?.x)
      .toBeGreaterThanOrEqual(0);
    await screenshot(page, 'main-menu-small-screen');
    await page.getByTestId('menu-dashboard').click();
    await expect.poll(menuOpen).toBe('false');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(menuOpen).toBe('true');
    // closed on the wide screen, it stays closed after a reload and after a small screen
    await page.getByTestId('menu-toggle').click();
    await expect.poll(menuOpen).toBe('false');
    await page.reload();
    await page.getByTestId('shell-environment-name').waitFor();
    await expect.poll(menuOpen).toBe('false');
    await page.setViewportSize({ width: 500, height: 800 });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(menuOpen).toBe('false');
  } finally {
    await close();
  }
});

test('pages of 12, inactive environments greyed and not openable', async () => {
  const user = await buildUser(stack.db);
  for (let i = 0; i < 12; i++) {
    await buildEnvironment(stack.db, { name: `Region ${String(i).padStart(2, '0')}`, members: [{ user }] });
  }
  await buildEnvironment(stack.db, { name: 'Winter archive', active: false, members: [{ user }] });
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, user.username, user.password);
    await expect.poll(() => page.getByTestId('environment-card').count()).toBe(12);
    await page.getByTestId('environment-pagination').getByRole('button', { name: '2' }).click();
    const archive = page.getByTestId('environment-card').filter({ hasText: 'Winter archive' });
    await archive.waitFor();
    await expect(archive.getByTestId('environment-inactive-note').textContent()).resolves.toContain(
      'Environment is inactive and cannot be opened.',
    );
    await expect(archive.getByTestId('environment-open').isDisabled()).resolves.toBe(true);
    await screenshot(page, 'environment-inactive');
  } finally {
    await close();
  }
});

test('a contract admin past the subscription limit is told so', async () => {
  const contractAdmin = await buildUser(stack.db, { roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
  await buildSubscription(stack.db, contractAdmin.id, 0);
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, contractAdmin.username, contractAdmin.password);
    await page.getByTestId('environment-new').click();
    await page.getByTestId('new-environment-name').fill('One too many');
    await page.getByTestId('new-environment-description').fill('Over the limit');
    await page.getByTestId('new-environment-tab-languages').click();
    await page.getByTestId('new-environment-language-en_GB').click();
    await page.getByTestId('new-environment-submit').click();
    await expect(page.getByTestId('new-environment-alert').textContent()).resolves.toContain(
      'You cannot create any more environments in your subscription.',
    );
  } finally {
    await close();
  }
});

test('a key login forces a new password before the environments show', async () => {
  const user = await buildUser(stack.db);
  const environment = await buildEnvironment(stack.db, { name: 'Keyed' });
  await buildEnvironment(stack.db, { name: 'Second', members: [{ user }] });
  await addMember(stack.db, environment.id, { user });
  const key = await createSecretToken(stack.db, 'login_key', user.id, 3600);
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto(`/login?${new URLSearchParams({ key, username: user.username })}`);
    await page.waitForURL('**/environment');
    await page.getByTestId('password-update').waitFor();
    await page.getByTestId('password-update-password').fill('chosen by me 123');
    await page.getByTestId('password-update-repeat').fill('chosen by me 123');
    await page.getByTestId('password-update-submit').click();
    await page.getByTestId('environment-grid').waitFor();
    await expect(page.getByTestId('environment-card').count()).resolves.toBe(2);

    await page.goto('/no/such/page');
    await page.getByTestId('not-found-page').waitFor();
  } finally {
    await close();
  }
  const signedIn = await stack.app.inject({
    method: 'POST',
    url: '/api/login_check',
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: { username: user.username, password: 'chosen by me 123' },
  });
  expect(signedIn.statusCode).toBe(200);
});
