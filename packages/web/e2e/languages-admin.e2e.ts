import { afterAll, beforeAll, expect, test } from 'vitest';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Admin settings > Languages: the environment's locales with flags, added and removed (never the last
// one), and its own wording of an interface text, seen in the shell at once, after a reload, and
// gone again when reset.

let stack: Stack;
let demoId: number;
beforeAll(async () => {
  stack = await startStack();
  demoId = (
    await stack.db.selectFrom('environment').select('id').where('name', '=', 'Demo').executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => stack?.close());

const overrides = () =>
  stack.db
    .selectFrom('environment_text')
    .select(['locale', 'key', 'value'])
    .where('environment_id', '=', demoId)
    .execute();

test('in Dutch: an admin rewords a text of the menu, sees it in the shell, and resets it', async () => {
  const { page, close } = await openBrowser(stack.baseUrl, { locale: 'nl-NL' });
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('menu-admin').click();
    await page.getByTestId('menu-admin-languages').click();
    await page.getByTestId('languages-page').waitFor();
    await page.getByTestId('languages-locale-nl_NL').waitFor();
    await expect.poll(() => page.getByTestId('languages-texts-language').inputValue()).toBe('Nederlands');
    await screenshot(page, 'languages-admin-nl');

    await page.getByTestId('languages-texts-search').fill('menu.admin_settings');
    await page.getByTestId('languages-text-edit-menu.admin_settings').click();
    await expect
      .poll(() => page.getByTestId('languages-edit-catalogue').textContent())
      .toBe('Beheerinstellingen');
    await page.getByTestId('languages-edit-value').fill('Beheer van de gemeente');
    await screenshot(page, 'languages-admin-nl-edit');
    await page.getByTestId('languages-edit-save').click();
    await expect.poll(() => page.getByTestId('menu-admin').textContent()).toContain('Beheer van de gemeente');
    expect(await overrides()).toEqual([
      { locale: 'nl', key: 'menu.admin_settings', value: 'Beheer van de gemeente' },
    ]);
    await screenshot(page, 'languages-admin-nl-changed');

    await page.getByTestId('languages-text-edit-menu.admin_settings').click();
    await page.getByTestId('languages-edit-reset').click();
    await expect.poll(() => page.getByTestId('menu-admin').textContent()).toContain('Beheerinstellingen');
    expect(await overrides()).toEqual([]);
  } finally {
    await close();
  }
});

test('an admin adds a language, overrides a text and sees it in the shell, resets it, and keeps the last language', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('menu-admin').click();
    await page.getByTestId('menu-admin-languages').click();
    await page.getByTestId('languages-page').waitFor();

    // German joins, and the language switch offers it at once
    await page.getByTestId('languages-add-select').click();
    await page.getByRole('option', { name: 'Deutsch (de_DE)' }).click();
    await page.getByTestId('languages-add').click();
    await page.getByTestId('languages-locale-de_DE').waitFor();
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-option-de_DE').waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'languages-admin-en');

    // the English wording of a menu text, found by its text, changed with the keyboard
    await page.getByTestId('languages-texts-search').fill('admin settings');
    await expect.poll(() => page.getByTestId('languages-texts-count').textContent()).toContain('1');
    await page.getByTestId('languages-text-edit-menu.admin_settings').focus();
    await page.keyboard.press('Enter');
    const value = page.getByTestId('languages-edit-value');
    await expect.poll(() => value.evaluate((node) => node === document.activeElement)).toBe(true);
    await value.fill('Administration <b>');
    await page.keyboard.press('Tab');
    await page.getByTestId('languages-edit-save').click();
    await page.getByText('Plain text only: no HTML').waitFor();
    await screenshot(page, 'languages-admin-en-error');
    await value.fill('Administration');
    await page.getByTestId('languages-edit-save').click();
    await expect.poll(() => page.getByTestId('menu-admin').textContent()).toContain('Administration');
    // with the keyboard: Space toggles the focused switch
    await page.getByRole('switch', { name: 'Only changed texts (1)' }).focus();
    await page.keyboard.press('Space');
    await page.getByTestId('languages-text-menu.admin_settings').waitFor();
    await screenshot(page, 'languages-admin-en-changed');

    // served with the catalogue: still there after a reload
    await page.reload();
    await page.getByTestId('languages-page').waitFor();
    await expect.poll(() => page.getByTestId('menu-admin').textContent()).toContain('Administration');

    // back to the catalogue's text
    await page.getByTestId('languages-texts-search').fill('menu.admin_settings');
    await page.getByTestId('languages-text-edit-menu.admin_settings').click();
    await page.getByTestId('languages-edit-reset').click();
    await expect.poll(() => page.getByTestId('menu-admin').textContent()).toContain('Admin settings');
    expect(await overrides()).toEqual([]);

    // German and Dutch go; English, the last, stays
    for (const code of ['de_DE', 'nl_NL']) {
      await page.getByTestId(`languages-remove-${code}`).click();
      await page.getByTestId('languages-remove-confirm').click();
      await expect.poll(() => page.getByTestId(`languages-locale-${code}`).count()).toBe(0);
    }
    await page.getByTestId('languages-last').waitFor();
    expect(await page.getByTestId('languages-remove-en_GB').isDisabled()).toBe(true);
    const left = await stack.db
      .selectFrom('environment_locale')
      .innerJoin('locale', 'locale.id', 'environment_locale.locale_id')
      .select('locale.code')
      .where('environment_locale.environment_id', '=', demoId)
      .execute();
    expect(left).toEqual([{ code: 'en_GB' }]);
    await screenshot(page, 'languages-admin-en-last');
  } finally {
    await close();
  }
});
