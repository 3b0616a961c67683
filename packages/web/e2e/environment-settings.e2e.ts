import { afterAll, beforeAll, expect, test } from 'vitest';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Admin settings > Generic, its Logo and colour page, and Modules: the environment's own settings,
// shown in the shell at once and kept after a reload.

const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

test('an admin renames the environment, sets its help contact, logo and colour, and switches a module on', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('menu-admin').click();
    await page.getByTestId('menu-admin-generic').click();
    await page.getByTestId('environment-edit-page').waitFor();
    // an empty name is refused with its message, and nothing is saved
    await page.getByTestId('environment-name').fill('');
    await page.getByTestId('environment-save').click();
    await page.getByText('This is a required field').waitFor();
    await screenshot(page, 'environment-edit-error');
    await page.getByTestId('environment-name').fill('Demo municipality');
    await page.getByTestId('environment-help-contact').fill('helpdesk@demo.example');
    await page.getByTestId('environment-save').click();
    await page.getByTestId('notification-success').first().waitFor();
    await expect
      .poll(() => page.getByTestId('shell-help-contact').textContent())
      .toContain('helpdesk@demo.example');
    await screenshot(page, 'environment-edit');

    await page.getByTestId('environment-layout-link').click();
    await page.getByTestId('layout-page').waitFor();
    // Mantine's FileInput is a button beside a hidden file input
    await page
      .getByTestId('layout-page')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    await page.getByRole('img', { name: 'Logo of the environment' }).waitFor();
    await page.getByTestId('layout-color').fill('#1a7f37');
    // Enter saves (the colour picker open under the field covers the button)
    await page.getByTestId('layout-color').press('Enter');
    await expect
      .poll(() =>
        page.getByTestId('shell-header').evaluate((header) => getComputedStyle(header).borderTopColor),
      )
      .toBe('rgb(26, 127, 55)');
    await screenshot(page, 'layout');

    await page.getByTestId('menu-admin-modules').click();
    await page.getByTestId('modules-page').waitFor();
    const secureShare = page.getByRole('switch', { name: 'Secure share' });
    // with the keyboard: Space toggles the focused switch
    await secureShare.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => secureShare.isChecked()).toBe(true);
    await page.getByTestId('module-secureshare-entities').click();
    await page.getByRole('option', { name: 'Cases' }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(
        async () =>
          (
            await stack.db
              .selectFrom('environment')
              .select('env_modules')
              .where('name', '=', 'Demo municipality')
              .executeTakeFirst()
          )?.env_modules,
      )
      .toEqual(['secureshare']);
    await screenshot(page, 'modules');

    await page.reload();
    await page.getByTestId('modules-page').waitFor();
    expect(await page.getByRole('switch', { name: 'Secure share' }).isChecked()).toBe(true);
    expect(await page.getByTestId('shell-help-contact').textContent()).toContain('helpdesk@demo.example');
  } finally {
    await close();
  }
});
