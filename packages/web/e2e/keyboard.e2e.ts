import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import {
  ADMIN_PASSWORD,
  hasFocus,
  openBrowser,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  startStack,
  tabTo,
} from './harness';

// The keyboard alone: a user signs in, opens an entity, filters, opens a dossier, edits and saves
// it, and creates a dossier, moving with Tab and acting with Enter and the arrow keys. No click.

let stack: Stack;
let fixture: EveryTypeEntity;
let nameSearchItem: number;
beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Person');
  await insertDossiers(stack.db, fixture, [{ Name: 'Alice' }, { Name: 'Bob' }, { Name: 'Carol' }]);
  const item = await stack.db
    .selectFrom('display_item')
    .select('id')
    .where('def_dossier_id', '=', fixture.entity.id)
    .where('def_dossier_def_field_id', '=', fixture.fields.Name.dataFieldId)
    .where('view', '=', 'search')
    .executeTakeFirstOrThrow();
  nameSearchItem = item.id;
  // archivable: the list's bulk bar offers Archive, which asks for confirmation in a modal
  await stack.db
    .updateTable('def_dossier')
    .set({ archivable: true })
    .where('id', '=', fixture.entity.id)
    .execute();
  // Category takes several options (a multiselect)
  await stack.db
    .updateTable('def_field')
    .set({ settings: { multiple: true } })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('def_dossier_def_field')
        .select('def_field_id')
        .where('id', '=', Number(fixture.fields.Category.dataFieldId)),
    )
    .execute();
}, 120_000);
afterAll(() => stack?.close());

const rowNames = (page: Page) =>
  page.locator('[data-testid="dossier-row"]').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));

test('sign in, open an entity, filter, open, edit and save a dossier, and create one, with the keyboard alone', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.goto('/login');
    await tabTo(page, '[data-testid="login-username"]');
    await page.keyboard.type('admin');
    await tabTo(page, '[data-testid="login-password"]');
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/environment');
    await page.getByTestId('environment-open').first().waitFor();
    await tabTo(page, '[data-testid="environment-open"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();

    // the first tab stop of the shell skips to the content
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    expect(await hasFocus(page, '[data-testid="skip-link"]')).toBe(true);

    // the entity from the menu; focus lands on the new page's heading
    await tabTo(page, `[data-testid="menu-entity"][data-entity-id="${fixture.entity.id}"]`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);
    await page.getByTestId('dossier-row').first().waitFor();
    await expect.poll(() => hasFocus(page, 'h1')).toBe(true);

    // filter: Name contains "Bob"
    await tabTo(page, '[data-testid="dossier-filter-toggle"]');
    await page.keyboard.press('Enter');
    const nameBox = `[data-testid="dossier-search-${nameSearchItem}"]`;
    await tabTo(page, `${nameBox} input:not([type="hidden"])`);
    // the operator: the arrow keys open the options and move to 'contains', Enter takes it
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option').first().waitFor();
    const highlighted = page.locator('[data-combobox-selected]');
    for (
      let i = 0;
      i < 10 && !((await highlighted.count()) && (await highlighted.textContent()) === 'contains');
      i++
    )
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator(`${nameBox} input:not([type="hidden"])`).first().inputValue())
      .not.toBe('');
    await tabTo(page, `${nameBox} input[aria-label$="Value"]`);
    await page.keyboard.type('Bob');
    await tabTo(page, '[data-testid="dossier-search-submit"]');
    await page.keyboard.press('Enter');
    await expect.poll(() => rowNames(page)).toEqual([expect.stringContaining('Bob')]);
    await screenshot(page, 'keyboard-filtered');

    // open the row with Enter, edit the name, save
    await tabTo(page, '[data-testid="dossier-row"]');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/contentdossier/*');
    await page.getByTestId('dossier-edit').waitFor();
    await tabTo(page, '[data-testid="dossier-edit"]');
    await page.keyboard.press('Enter');
    const nameInput = `[data-testid="dossier-item-${fixture.fields.Name.itemId}"] input`;
    await tabTo(page, nameInput);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Bobby');
    await tabTo(page, '[data-testid="dossier-save"]');
    await page.keyboard.press('Enter');
    await expect
      .poll(
        async () =>
          (
            await stack.db
              .selectFrom('content_dossier')
              .select('summary')
              .where('def_dossier_id', '=', fixture.entity.id)
              .where('summary', '=', 'Bobby')
              .execute()
          ).length,
      )
      .toBe(1);

    // create one from the create page
    await page.goto(`/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId('dossier-create-page').waitFor();
    await tabTo(page, nameInput);
    await page.keyboard.type('Dave');
    // the rich-text toolbar is one tab stop: the arrow keys move inside it, Tab goes on to the text
    await tabTo(page, '[data-testid="rich-text-bold"]');
    await page.keyboard.press('ArrowRight');
    expect(await hasFocus(page, '[data-testid="rich-text-italic"]')).toBe(true);
    await page.keyboard.press('Tab');
    expect(await hasFocus(page, '.tiptap')).toBe(true);
    await page.keyboard.type('Met at the door');
    await tabTo(page, '[data-testid="dossier-add"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/contentdossier\/\d+/);
    await screenshot(page, 'keyboard-created');
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const created = await stack.db
      .selectFrom('content_dossier')
      .select(['summary', 'values'])
      .where('def_dossier_id', '=', fixture.entity.id)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(created.values).toMatchObject({
      [String(fixture.fields.Name.dataFieldId)]: 'Dave',
      [String(fixture.fields.Notes.dataFieldId)]: '<p>Met at the door</p>',
    });
  } finally {
    await close();
  }
});

/** The data-item-id of the dossier field that holds the focus (null: the focus is outside every field). */
const focusedItem = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.closest('[data-item-id]')?.getAttribute('data-item-id') ?? null,
  );

/** Moves the highlighted option of the open listbox to `text` with the arrow keys. */
async function arrowTo(page: Page, text: string) {
  const highlighted = page.locator('[data-combobox-selected]');
  for (let i = 0; i < 10; i++) {
    if ((await highlighted.count()) && (await highlighted.textContent())?.trim() === text) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no option ${text}`);
}

test('choosing a list option or a link option with Enter leaves the focus on the field', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId('dossier-create-page').waitFor();

    // the list field Status and the multiselect Category: the arrow keys open the options and move,
    // Enter takes one, and the field keeps the focus (for the next, in a multiselect)
    for (const [field, option] of [
      ['Status', 'Closed'],
      ['Category', 'Child'],
    ]) {
      const item = fixture.fields[field].itemId;
      const input = `[data-testid="dossier-item-${item}"] input:not([type="hidden"])`;
      await tabTo(page, input);
      await page.keyboard.press('ArrowDown');
      await page.getByRole('option').first().waitFor();
      await arrowTo(page, option);
      await page.keyboard.press('Enter');
      // chosen: the select's input or the multiselect's pill shows it
      const shown = () =>
        page
          .getByTestId(`dossier-item-${item}`)
          .evaluate(
            (box) => [...box.querySelectorAll('input')].map((i) => i.value).join(' ') + box.textContent,
          );
      await expect.poll(shown).toContain(option);
      expect(await hasFocus(page, input)).toBe(true);
    }

    // the link Organisation: type to search, Enter links it; the single link is then full and its
    // search gives way, and the focus stays in the field (on the linked dossier's remove button)
    const organisation = fixture.fields.Organisation.itemId;
    await tabTo(page, `[data-testid="dossier-item-${organisation}"] input`);
    await page.keyboard.type('Acm');
    await page.getByRole('option', { name: 'Acme', exact: true }).waitFor();
    await arrowTo(page, 'Acme');
    await page.keyboard.press('Enter');
    await page.getByTestId(`dossier-item-${organisation}`).getByTestId('link-limit').waitFor();
    await expect.poll(() => focusedItem(page)).toBe(String(organisation));
    await screenshot(page, 'keyboard-link-chosen');
  } finally {
    await close();
  }
});

const inDialog = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));

/** The open dialog holds the focus: it moves there, and Tab and Shift+Tab go round inside it. */
async function expectFocusTrapped(page: Page) {
  await page.getByRole('dialog').waitFor();
  await expect.poll(() => inDialog(page)).toBe(true);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(key);
      expect(await inDialog(page), `${key} ${i + 1} left the dialog`).toBe(true);
    }
  }
}

/** Enter on the focused `opener`, and on the menu item `item` when the opener is a menu's button. */
async function openWithEnter(page: Page, opener: string, item?: string) {
  await expect.poll(() => hasFocus(page, opener)).toBe(true);
  await page.keyboard.press('Enter');
  if (!item) return;
  await expect.poll(() => hasFocus(page, item)).toBe(true);
  await page.keyboard.press('Enter');
}

/**
 * A modal opened with the keyboard from `opener` holds the focus, and gives it back to the opener
 * when it closes: with Escape, or with Enter on the button `closer`. `ready`: what the modal shows
 * once it has loaded (the round of Tabs must not change course half way).
 */
async function expectModalRoundTrip(
  page: Page,
  opener: string,
  options: { item?: string; closer?: string; screen?: string; ready?: string } = {},
) {
  await tabTo(page, opener);
  await openWithEnter(page, opener, options.item);
  if (options.ready) await page.locator(options.ready).waitFor();
  await expectFocusTrapped(page);
  if (options.screen) await screenshot(page, options.screen);
  if (options.closer) {
    await tabTo(page, options.closer);
    await page.keyboard.press('Enter');
  } else await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await expect.poll(() => hasFocus(page, opener)).toBe(true);
}

test('every modal keeps the focus inside and gives it back to what opened it', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);

    // the field designer: a field's cog menu opens its display settings
    await page.goto(`/fieldeditor/${fixture.entity.id}`);
    await page.getByTestId('field-designer').waitFor();
    await expectModalRoundTrip(page, `[data-testid="designer-cog-${fixture.fields.Name.itemId}"]`, {
      item: '[data-testid="cog-display"]',
      screen: 'keyboard-modal-display-item',
    });

    // deleting the field from its display settings: the cog that opened them is gone with it, and
    // the focus goes to the page's heading
    await tabTo(page, `[data-testid="designer-cog-${fixture.fields.Amount.itemId}"]`);
    await openWithEnter(
      page,
      `[data-testid="designer-cog-${fixture.fields.Amount.itemId}"]`,
      '[data-testid="cog-display"]',
    );
    await page.getByRole('dialog').waitFor();
    await tabTo(page, '[data-testid="display-delete"]');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page
      .locator(`[data-testid="designer-cog-${fixture.fields.Amount.itemId}"]`)
      .waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(page, 'h1')).toBe(true);

    // the list: a row's quick edit, then the bulk bar's Delete and its More menu's confirmations
    await page.goto(`/defdossier/${fixture.entity.id}`);
    await page.getByTestId('dossier-row').first().waitFor();
    await expectModalRoundTrip(page, '[data-testid="dossier-quick-edit"]', {
      ready: '[data-testid="quick-edit-form"]',
    });
    await tabTo(page, '[data-testid="dossier-row-select"]');
    await page.keyboard.press('Space');
    await page.getByTestId('dossier-bulk-bar').waitFor();
    await expectModalRoundTrip(page, '[data-testid="dossier-bulk-delete"]', {
      screen: 'keyboard-modal-bulk-delete',
    });
    const more = '[data-testid="dossier-bulk-more"]';
    const archive = '[data-testid="dossier-bulk-archive"]';
    await expectModalRoundTrip(page, more, {
      item: archive,
      closer: '[data-testid="dossier-bulk-confirm"] button:not([data-testid])',
    });

    // confirmed, the action clears the selection and the bar goes with its buttons: the focus goes
    // to the page's heading
    await openWithEnter(page, more, archive);
    await page.getByRole('dialog').waitFor();
    await tabTo(page, '[data-testid="dossier-bulk-confirm-ok"]');
    await page.keyboard.press('Enter');
    await page.getByTestId('dossier-bulk-bar').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(page, 'h1')).toBe(true);
  } finally {
    await close();
  }
});
