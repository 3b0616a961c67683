import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildDisplayItem } from '../../server/test/entity-factories';
import { addMember, buildDefDossier, buildUser } from '../../server/test/factories';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import {
  DEMO_PASSWORD,
  openBrowser,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  signIn,
  startStack,
} from './harness';

// The dossier list screen /defdossier/{id} (spec doc 2 section 2) over 60 inserted dossiers.

const COUNT = 60;
let stack: Stack;
let fixture: EveryTypeEntity;
/** display item ids of the list and search views, by field name */
let listItem: Record<string, number>;
let searchItem: Record<string, number>;

/** Row i (0-based, inserted in this order): names are a permutation so id order != name order. */
const nameOf = (i: number) => `Person ${String(((i * 37) % COUNT) + 1).padStart(2, '0')}`;
const amountOf = (i: number) => (i + 1) * 1.5;

async function itemIds(view: string): Promise<Record<string, number>> {
  const rows = await stack.db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as f', 'f.id', 'i.def_dossier_def_field_id')
    .select(['i.id', 'f.name'])
    .where('i.def_dossier_id', '=', fixture.entity.id)
    .where('i.view', '=', view)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.id)]));
}

beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Person');
  await stack.db
    .updateTable('def_dossier')
    .set({ archivable: true })
    .where('id', '=', fixture.entity.id)
    .execute();
  await insertDossiers(
    stack.db,
    fixture,
    Array.from({ length: COUNT }, (_, i) => ({
      Name: nameOf(i),
      Amount: amountOf(i),
      Status: i % 2 === 0 ? fixture.options.open : fixture.options.closed,
      Email: `person${i + 1}@example.com`,
      Secret: `secret ${i + 1}`,
    })),
  );
  listItem = await itemIds('list');
  searchItem = await itemIds('search');
  // The fixture gives Secret's items an admin-only role with the default EXCLUDE_SELECTED_ROLES,
  // which would show them to everybody else; INCLUDE_SELECTED_ROLES makes them admin-only.
  await stack.db
    .updateTable('display_item')
    .set({ permissions_type: 'INCLUDE_SELECTED_ROLES' })
    .where('def_dossier_def_field_id', '=', fixture.fields.Secret.dataFieldId)
    .execute();
}, 120_000);
afterAll(() => stack?.close());

/** Picks an option of a Mantine Select by its label. */
async function choose(page: Page, target: ReturnType<Page['getByTestId']>, label: string) {
  await target.click({ force: true });
  await page.getByRole('option', { name: label, exact: true }).click();
}

const rows = (page: Page) => page.getByTestId('dossier-row');
const firstName = (page: Page) =>
  rows(page).first().getByTestId(`dossier-cell-${listItem.Name}`).textContent();

/** Waits until the table shows `n` rows and the total says `items`. */
async function expectRows(page: Page, n: number, items: number) {
  await page.waitForFunction(
    ([count, all]) =>
      document.querySelectorAll('[data-testid="dossier-row"]').length === count &&
      document.querySelector('[data-testid="dossier-list-total"]')?.getAttribute('data-total') ===
        String(all),
    [n, items],
  );
}

/** Fills one search input of the filter panel: operator, then a text value or a select option. */
async function search(
  page: Page,
  itemId: number,
  operator: string,
  value: { text?: string; option?: string },
) {
  const box = page.getByTestId(`dossier-search-${itemId}`);
  await choose(page, box.locator('input:not([type="hidden"])').first(), operator);
  const input = box.locator('input:not([type="hidden"])').nth(1);
  if (value.text !== undefined) await input.fill(value.text);
  if (value.option !== undefined) await choose(page, input, value.option);
}

test('the admin pages, sorts, filters, aggregates and archives in the dossier list', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.locator(`[data-testid="menu-entity"][data-entity-id="${fixture.entity.id}"]`).click();
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);
    await expect(page.getByTestId('dossier-list-title').textContent()).resolves.toBe('Person');
    await expectRows(page, 50, COUNT);
    await page.getByTestId('dossier-add').waitFor();
    // newest first: the last inserted dossier leads
    await expect(firstName(page)).resolves.toBe(nameOf(COUNT - 1));
    await screenshot(page, 'dossier-list-page-1');

    // page 2 holds the last 10
    await page.getByTestId('dossier-pager').getByRole('button', { name: '2', exact: true }).click();
    await expectRows(page, 10, COUNT);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await expect(firstName(page)).resolves.toBe(nameOf(COUNT - 51));
    // back in history returns to page 1
    await page.goBack();
    await expectRows(page, 50, COUNT);

    // page size 25, kept after a reload (session storage)
    await choose(page, page.getByTestId('dossier-page-size'), '25');
    await expectRows(page, 25, COUNT);
    await page.reload();
    await expectRows(page, 25, COUNT);
    await expect(page.getByTestId('dossier-page-size').inputValue()).resolves.toBe('25');

    // sort on Name: ascending, descending, cleared (back to newest first)
    const sortName = page.getByTestId(`dossier-sort-${listItem.Name}`);
    await sortName.click();
    await page.waitForFunction(() => document.querySelector('[data-sort="asc"]'));
    await expect.poll(() => firstName(page)).toBe('Person 01');
    await screenshot(page, 'dossier-list-sorted-asc');
    await sortName.click();
    await expect.poll(() => firstName(page)).toBe('Person 60');
    expect(await sortName.getAttribute('data-sort')).toBe('desc');
    await sortName.click();
    await expect.poll(() => firstName(page)).toBe(nameOf(COUNT - 1));
    expect(await sortName.getAttribute('data-sort')).toBe('none');

    // filter on a text field: Name contains "Person 1" -> Person 10 to Person 19
    await page.getByTestId('dossier-filter-toggle').click();
    await search(page, searchItem.Name, 'contains', { text: 'Person 1' });
    await page.getByTestId('dossier-search-submit').click();
    await expectRows(page, 10, 10);
    const names = await page.getByTestId(`dossier-cell-${listItem.Name}`).allTextContents();
    expect(names.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Person 1${i}`));
    await screenshot(page, 'dossier-list-text-filter');
    await page.getByTestId('dossier-search-reset').click();
    await expectRows(page, 25, COUNT);

    // filter on a list option: Status is Open -> the 30 even rows
    await search(page, searchItem.Status, 'is', { option: 'Open' });
    await page.getByTestId('dossier-search-submit').click();
    await expectRows(page, 25, 30);
    const statuses = await page.getByTestId(`dossier-cell-${listItem.Status}`).allTextContents();
    expect(new Set(statuses)).toEqual(new Set(['Open']));
    await screenshot(page, 'dossier-list-option-filter');
    await page.getByTestId('dossier-search-reset').click();
    await expectRows(page, 25, COUNT);

    // sum of the Amount column over all 60 dossiers
    const sum = Array.from({ length: COUNT }, (_, i) => amountOf(i)).reduce((a, b) => a + b, 0);
    expect(sum).toBe(2745);
    await choose(page, page.getByTestId(`dossier-aggregate-${listItem.Amount}`), 'Sum');
    const aggregate = page.getByTestId(`dossier-aggregate-value-${listItem.Amount}`);
    await aggregate.waitFor();
    expect(await aggregate.textContent()).toMatch(/2[.,]745[.,]00/);
    await screenshot(page, 'dossier-list-aggregate');

    // select rows: select-all then one row, archive it
    await page.getByTestId('dossier-select-all').check();
    await expect(page.getByTestId('dossier-bulk-count').textContent()).resolves.toContain('25');
    await page.getByTestId('dossier-select-all').uncheck();
    await page.getByTestId('dossier-bulk-bar').waitFor({ state: 'hidden' });
    const first = rows(page).first();
    const archivedId = await first.getAttribute('data-dossier-id');
    const archivedName = await firstName(page);
    await first.getByTestId('dossier-row-select').check();
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-archive').click();
    await screenshot(page, 'dossier-list-archive-confirm');
    await page.getByTestId('dossier-bulk-confirm-ok').click();
    await expectRows(page, 25, COUNT - 1);
    expect(await page.locator(`[data-dossier-id="${archivedId}"]`).count()).toBe(0);
    // shown as archived when archived dossiers are listed too
    await page.getByTestId('dossier-search-archived').getByText('Only archived').click();
    await page.getByTestId('dossier-search-submit').click();
    await expectRows(page, 1, 1);
    const archivedRow = page.locator(`[data-dossier-id="${archivedId}"]`);
    expect(await archivedRow.getAttribute('data-archived')).toBe('true');
    await archivedRow.getByTestId('dossier-archived-badge').waitFor();
    expect(await firstName(page)).toBe(archivedName);
    await screenshot(page, 'dossier-list-archived');
    await page.getByTestId('dossier-search-reset').click();
    await expectRows(page, 25, COUNT - 1);

    // a filter without matches
    await search(page, searchItem.Name, 'contains', { text: 'nobody-has-this-name' });
    await page.getByTestId('dossier-search-submit').click();
    await page.getByTestId('dossier-list-empty').waitFor();
    expect(await page.getByTestId('dossier-list-empty').textContent()).toBe('No items found');
    await screenshot(page, 'dossier-list-empty');
    await page.getByTestId('dossier-search-reset').click();
    await expectRows(page, 25, COUNT - 1);

    // eye: quick show; pencil: quick edit, saved into the list
    const top = rows(page).first();
    const topName = (await firstName(page)) ?? '';
    await top.getByTestId('dossier-quick-show').click();
    const show = page.getByTestId('quick-show-modal');
    await show.getByText(topName).first().waitFor();
    await screenshot(page, 'dossier-list-quick-show');
    await page.getByTestId('quick-show-close').click();
    await show.waitFor({ state: 'hidden' });
    await top.getByTestId('dossier-quick-edit').click();
    const edit = page.getByTestId('quick-edit-modal');
    const nameInput = edit.getByRole('textbox', { name: /^Name/ }).first();
    await nameInput.fill(`${topName} edited`);
    await page.getByTestId('quick-edit-save').click();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(() => firstName(page)).toBe(`${topName} edited`);

    // Ctrl click opens the dossier in a new window
    const ctrlId = await rows(page).nth(1).getAttribute('data-dossier-id');
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      rows(page)
        .nth(1)
        .getByTestId(`dossier-cell-${listItem.Amount}`)
        .click({ modifiers: ['Control'] }),
    ]);
    await popup.waitForURL(`**/contentdossier/${ctrlId}`);
    await popup.close();
    expect(new URL(page.url()).pathname).toBe(`/defdossier/${fixture.entity.id}`);

    // a row opens the dossier
    const openId = await rows(page).first().getAttribute('data-dossier-id');
    await rows(page).first().getByTestId(`dossier-cell-${listItem.Name}`).click();
    await page.waitForURL(`**/contentdossier/${openId}`);
  } catch (error) {
    await screenshot(page, 'dossier-list-failure');
    throw error;
  } finally {
    await close();
  }
}, 240_000);

test('a caseworker does not see the column of a field hidden from the role', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await page.locator(`[data-testid="menu-entity"][data-entity-id="${fixture.entity.id}"]`).click();
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);
    await page.getByTestId('dossier-row').first().waitFor();
    const columns = await page.getByTestId('dossier-column').allTextContents();
    expect(columns).toContain('Name');
    expect(columns).toContain('Amount');
    expect(columns).not.toContain(fixture.hiddenFieldName);
    expect(await page.locator(`[data-item-id="${listItem.Secret}"]`).count()).toBe(0);
    // option labels, not ids, and the search panel from the items their role may see
    const statuses = await page.getByTestId(`dossier-cell-${listItem.Status}`).allTextContents();
    expect(statuses.every((text) => text === 'Open' || text === 'Closed')).toBe(true);
    await page.getByTestId('dossier-filter-toggle').click();
    await page.getByTestId(`dossier-search-${searchItem.Status}`).waitFor();
    expect(await page.getByTestId(`dossier-search-${searchItem.Secret}`).count()).toBe(0);
    await screenshot(page, 'dossier-list-caseworker');

    // an entity without the show permission: the general not-allowed message
    const locked = await buildDefDossier(stack.db, fixture.environmentId, { name: 'Locked' });
    await page.goto(`/defdossier/${locked.id}`);
    const forbidden = page.getByTestId('dossier-list-forbidden');
    await forbidden.waitFor();
    expect(await forbidden.textContent()).toBe('You do not have permission to do this.');
  } catch (error) {
    await screenshot(page, 'dossier-list-caseworker-failure');
    throw error;
  } finally {
    await close();
  }
}, 120_000);

test('owners beyond the first 500 members are shown by name, not by id', async () => {
  // 500 members who sort before everyone else by last name, then an owner who sorts after them
  await sql`insert into app_user (username, first_name, last_name, roles)
    select 'crowd_' || n, 'Crowd', 'Aaberg ' || lpad(n::text, 3, '0'), '{ROLE_USER}'
    from generate_series(1, 500) n`.execute(stack.db);
  await sql`insert into environment_user (environment_id, user_id, credentials, role_ids)
    select ${fixture.environmentId}, id, '{}', '{}' from app_user where username like 'crowd\\_%'`.execute(
    stack.db,
  );
  const owner = await buildUser(stack.db, { username: 'zora_zwart' });
  await stack.db
    .updateTable('app_user')
    .set({ first_name: 'Zora', last_name: 'Zwart' })
    .where('id', '=', owner.id)
    .execute();
  await addMember(stack.db, fixture.environmentId, { user: owner });
  const [id] = await insertDossiers(stack.db, fixture, [{ Name: 'Owned by Zora', Owner: owner.id }]);

  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/defdossier/${fixture.entity.id}`);
    const row = page.getByTestId('dossier-row').first();
    await row.getByText('Owned by Zora').waitFor();
    await expect
      .poll(() => row.getByTestId(`dossier-cell-${listItem.Owner}`).textContent())
      .toBe('Zora Zwart');
    await page.goto(`/contentdossier/${id}`);
    await page.getByTestId('dossier-title').getByText('Owned by Zora').waitFor();
    await page.getByText('Zora Zwart').first().waitFor();
  } finally {
    await close();
  }
}, 120_000);

test('columns of system fields show and sort on the creation date and the creator', async () => {
  // an entity of its own, listing Name, Created (systemdate) and Creator (systemuser)
  const visits = await buildEveryTypeEntity(stack.db, 'Visit');
  const column = async (name: string, rank: number) =>
    (
      await buildDisplayItem(stack.db, visits.entity, {
        dataFieldId: visits.fields[name].dataFieldId,
        view: 'list',
        rank,
      })
    ).id;
  const created = await column('Created', 20);
  const creator = await column('Creator', 21);
  const ids = await insertDossiers(stack.db, visits, [
    { Name: 'Second' },
    { Name: 'First' },
    { Name: 'Third' },
  ]);
  const made = [
    ['2026-01-02T09:15:00Z', visits.adminUserId],
    ['2026-01-01T09:15:00Z', visits.demoUserId],
    ['2026-01-03T09:15:00Z', visits.adminUserId],
  ] as const;
  for (const [i, [at, by]] of made.entries())
    await stack.db
      .updateTable('content_dossier')
      .set({ created_at: new Date(at), created_by: by, modified_by: by })
      .where('id', '=', ids[i])
      .execute();

  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/defdossier/${visits.entity.id}`);
    await expectRows(page, 3, 3);
    const cell = (row: number, item: number) =>
      rows(page).nth(row).getByTestId(`dossier-cell-${item}`).textContent();
    // newest first (by id): Third, First, Second; dates in Amsterdam time, users by name
    await expect.poll(() => cell(1, created)).toBe('01-01-2026 10:15');
    await expect.poll(() => cell(1, creator)).toBe('Demo User');
    await expect.poll(() => cell(0, creator)).toBe('Demo Administrator');
    await page.getByTestId(`dossier-sort-${creator}`).scrollIntoViewIfNeeded();
    await screenshot(page, 'dossier-list-system-fields');

    // sorting on Created puts the oldest first
    await page.getByTestId(`dossier-sort-${created}`).click();
    await page.waitForFunction(() => document.querySelector('[data-sort="asc"]'));
    await expect.poll(() => cell(0, created)).toBe('01-01-2026 10:15');
    await expect.poll(() => cell(2, created)).toBe('03-01-2026 10:15');
  } catch (error) {
    await screenshot(page, 'dossier-list-system-fields-failure');
    throw error;
  } finally {
    await close();
  }
}, 120_000);
