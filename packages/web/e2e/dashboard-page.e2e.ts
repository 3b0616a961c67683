import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemoRecords } from '../../server/src/seed-records';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// The dashboard page's own features and the dossier list blocks: the admin makes a card list of
// clients (person cards in a carousel, with an add button) and a table of clients in two tabs of
// saved queries with values edited in place; a chart follows the page's date grouping; a container
// shows its blocks as an accordion. Blocks are hidden and restored (kept over a reload), expanded
// into a printable modal, and the dashboard is presented full screen without the menu. A block
// display item draws its block on a client's page about that client.

let stack: Stack;
let environment: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  stack = await startStack();
  await seedDemoRecords(stack.db);
  environment = (
    await stack.db.selectFrom('environment').select('id').where('name', '=', 'Demo').executeTakeFirstOrThrow()
  ).id;
  const entities = await stack.db
    .selectFrom('def_dossier')
    .select(['id', 'translations'])
    .where('environment_id', '=', environment)
    .execute();
  const entity = (name: string) =>
    entities.find((e) => e.translations.some((tr) => tr.name_singular === name))?.id ?? 0;
  ids.client = entity('Client');
  ids.case = entity('Case');
  ids.clientStatus = await field('Client_status');
  ids.amount = await field('Amount');
  ids.caseStatus = await field('Case_status');
  ids.link = (
    await stack.db
      .selectFrom('def_dossier_link')
      .select('id')
      .where('environment_id', '=', environment)
      .where('name', '=', 'Client')
      .executeTakeFirstOrThrow()
  ).id;
  ids.clientMain = (
    await stack.db
      .selectFrom('display_position')
      .select('id')
      .where('def_dossier_id', '=', ids.client)
      .orderBy('rank')
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id;
  ids.anna = Number(
    (
      await stack.db
        .selectFrom('content_dossier')
        .select('id')
        .where('environment_id', '=', environment)
        .where('summary', 'like', '%Anna%')
        .executeTakeFirstOrThrow()
    ).id,
  );
}, 120_000);
afterAll(() => stack?.close());

/** A data field of the demo environment by its name. */
const field = async (name: string) =>
  (
    await stack.db
      .selectFrom('def_dossier_def_field')
      .select('id')
      .where('environment_id', '=', environment)
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).id;

/** A call with the signed-in admin's session (the CSRF header the API asks of writes). */
async function call(page: Page, method: 'post' | 'patch', path: string, data: unknown) {
  const response = await page.request[method](path, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data,
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return response.json();
}

async function choose(page: Page, testId: string, label: string, index = 0) {
  await page.getByTestId(testId).nth(index).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Polls as long as a locator waits: a loaded machine may take more than expect.poll's one second. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

const blockNamed = (page: Page, title: string) =>
  page
    .locator('[data-testid="grid-item"]')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const gridCount = (page: Page) => page.getByTestId('grid-item').count();

async function newListBlock(page: Page, title: string) {
  await page.getByTestId('dashboard-add-block').click();
  await page.getByTestId('block-type').waitFor();
  await choose(page, 'block-type', 'Dossier list');
  await page.getByTestId('block-title-en_GB').fill(title);
  await choose(page, 'block-entity', 'Clients');
  await page.getByTestId('block-tab-specific').click();
}

async function saveBlock(page: Page) {
  await page.getByTestId('block-editor-save').click();
  await page.getByTestId('block-editor').waitFor({ state: 'detached' });
}

test('list block templates, tabs and inline edit; hide, restore, expand, present, date grouping; a block on a dossier page', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    page.on('console', (m) => m.type() === 'error' && console.log('CONSOLE', m.text()));
    await page.setViewportSize({ width: 1280, height: 1300 });
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('dashboard-empty').waitFor();

    // saved queries for the tabs
    const query = async (name: string, option: string) => {
      const options = await stack.db
        .selectFrom('def_field_list')
        .select(['id', 'translations'])
        .where('environment_id', '=', environment)
        .execute();
      const row = options.find((o) =>
        (o.translations as { text?: string }[]).some((tr) => tr.text === option),
      );
      if (!row) throw new Error(`no list option ${option}`);
      return (
        await call(page, 'post', '/api/dossierquery', {
          environment,
          defDossier: ids.client,
          translations: [{ culture: 'en_GB', search_name: name }],
          data: {
            combinators: [
              {
                combine: 'AND',
                fields: [{ id: ids.clientStatus, type: 'equals', value: row.id }],
                links: [],
                combinators: [],
              },
            ],
          },
        })
      ).id as number;
    };
    await query('Active clients', 'Active');
    await query('Inactive clients', 'Inactive');

    // person cards in a carousel, the name as title and the e-mail as description, with an add button
    await newListBlock(page, 'Client cards');
    await choose(page, 'block-setting-layout', 'Cards');
    await choose(page, 'block-setting-template', 'Person card');
    await choose(page, 'block-slot-title', 'Name');
    await choose(page, 'block-slot-description', 'Email');
    await page.getByTestId('block-setting-carousel').check();
    await page.getByTestId('block-setting-show_add').check();
    await screenshot(page, 'dashboard-page-editor-cards');
    await saveBlock(page);

    // a table in two tabs of saved queries, values edited in place
    await newListBlock(page, 'Clients by status');
    await page.getByTestId('block-setting-inline_edit').check();
    await page.getByTestId('block-add-tab-query').click();
    await page.getByTestId('block-add-tab-query').click();
    await choose(page, 'block-tab-query-query', 'Active clients', 0);
    await page.getByTestId('block-tab-query-title').nth(0).fill('Active');
    await choose(page, 'block-tab-query-query', 'Inactive clients', 1);
    await page.getByTestId('block-tab-query-title').nth(1).fill('Inactive');
    await page.getByTestId('block-tab-layout').click();
    await choose(page, 'block-setting-refresh_rate', 'Every minute');
    await screenshot(page, 'dashboard-page-editor-tabs');
    await saveBlock(page);

    // a chart by creation month and a container as an accordion (through the API)
    const chartBlock = await call(page, 'post', '/api/mypageblock', {
      environment,
      type: 'count_list_options',
      defDossier: ids.case,
      translations: [{ culture: 'en_GB', title: 'Cases by status' }],
      settings: { count_list_field: ids.caseStatus, use_creation_date: true, chart_format: 'table' },
    });
    const container = await call(page, 'post', '/api/mypageblock', {
      environment,
      type: 'block_container',
      translations: [{ culture: 'en_GB', title: 'Overview' }],
      settings: { layout: 'accordion' },
    });
    for (const [title, type] of [
      ['Total amount', 'sum_fields'],
      ['Who is online', 'online_users'],
    ])
      await call(page, 'post', '/api/mypageblock', {
        environment,
        type,
        parent: container.id,
        ...(type === 'sum_fields' ? { defDossier: ids.case, settings: { sum_field: ids.amount } } : {}),
        translations: [{ culture: 'en_GB', title }],
      });
    await page.reload();
    await poll(() => gridCount(page)).toBe(4);

    // the cards: four clients in a carousel of person cards
    const cards = blockNamed(page, 'Client cards');
    await cards.getByTestId('block-carousel').waitFor();
    await poll(() => cards.locator('[data-template="cardPerson"]').count()).toBe(4);
    expect(await cards.getByTestId('block-card-description').first().textContent()).toContain('@example.com');
    await cards.getByRole('button', { name: 'Next' }).click();

    // the tabs: three active clients, one inactive
    const table = blockNamed(page, 'Clients by status');
    await poll(() => table.getByTestId('block-list-row').count()).toBe(3);
    await table.getByRole('tab', { name: 'Inactive', exact: true }).click();
    await poll(() => table.getByTestId('block-list-row').count()).toBe(1);
    expect(await table.getByTestId('block-list-row').textContent()).toContain('Chantal');
    await table.getByRole('tab', { name: 'Active', exact: true }).click();
    await poll(() => table.getByTestId('block-list-row').count()).toBe(3);

    // the accordion: both blocks of the container, the first open
    const overview = blockNamed(page, 'Overview');
    await poll(() => overview.getByTestId('block-container-section').count()).toBe(2);
    await overview.getByTestId('block-sum').waitFor();
    await screenshot(page, 'dashboard-page-blocks');

    // inline edit: Anna's e-mail through the normal update call
    const anna = table.locator(`[data-dossier-id="${ids.anna}"]`);
    await anna.getByRole('button', { name: 'Edit Email of Anna de Vries' }).click();
    const editor = page.getByTestId('block-inline-editor');
    await editor.waitFor();
    await editor.getByRole('textbox').first().fill('anna.new@example.com');
    await screenshot(page, 'dashboard-page-inline-edit');
    const updated = page.waitForResponse(
      (r) => r.url().includes(`/api/contentdossier/${ids.anna}`) && r.request().method() === 'PUT',
    );
    await editor.getByTestId('block-inline-save').click();
    expect((await updated).status()).toBe(200);
    await poll(() => anna.textContent()).toContain('anna.new@example.com');
    expect(await anna.textContent()).toContain('Anna de Vries');

    // show_add: a new client from the card block, which then shows five cards
    await cards.getByTestId('block-list-add').click();
    const modal = page.getByTestId('new-linked-dossier-modal');
    await page.getByTestId('new-linked-dossier-form').waitFor();
    await screenshot(page, 'dashboard-page-add');
    await modal.getByRole('textbox', { name: 'Name' }).fill('Eva Smit');
    await modal.getByTestId('new-linked-dossier-add').click();
    await page.getByTestId('new-linked-dossier-form').waitFor({ state: 'detached' });
    await poll(() => cards.locator('[data-template="cardPerson"]').count()).toBe(5);

    // the date grouping: the chart is read again by quarter
    const chart = blockNamed(page, 'Cases by status');
    await chart.getByTestId('block-figures').waitFor();
    const byQuarter = page.waitForResponse(
      (r) =>
        r.url().includes(`/mypageblock/${chartBlock.id}/data`) && r.url().includes('date_format=quarter'),
    );
    await choose(page, 'dashboard-date-format', 'Quarter');
    const periods = ((await (await byQuarter).json()).rows as { period: string }[]).map((r) => r.period);
    expect(periods.length).toBeGreaterThan(0);
    for (const period of periods) expect(period).toMatch(/^\d{4}-Q[1-4]$/);
    await poll(() => chart.getByTestId('block-figures').textContent()).toMatch(/\d{4}-Q[1-4]/);

    // hide by keyboard, restore from the toolbar; hidden stays hidden over a reload
    await chart.getByTestId('block-hide').focus();
    await page.keyboard.press('Enter');
    await poll(() => gridCount(page)).toBe(3);
    await page.reload();
    await poll(() => gridCount(page)).toBe(3);
    await page.getByTestId('dashboard-restore').click();
    await screenshot(page, 'dashboard-page-restore');
    await page.getByTestId('dashboard-restore-block').filter({ hasText: 'Cases by status' }).click();
    await poll(() => gridCount(page)).toBe(4);
    expect(await page.getByTestId('dashboard-restore').count()).toBe(0);

    // expand into a printable modal
    await cards.getByTestId('block-expand').click();
    const expanded = page.getByTestId('block-expanded');
    await expanded.getByTestId('block-expanded-print').waitFor();
    await poll(() => expanded.locator('[data-template="cardPerson"]').count()).toBe(5);
    await expanded.getByTestId('block-expanded-print').waitFor();
    await screenshot(page, 'dashboard-page-expanded');
    await page.keyboard.press('Escape');
    await expanded.getByTestId('block-expanded-print').waitFor({ state: 'detached' });

    // presentation: the menu goes, and comes back
    await page.getByTestId('dashboard-presentation').click();
    await poll(() => page.evaluate(() => document.body.dataset.presentation)).toBe('true');
    await poll(() => page.getByTestId('main-menu').isVisible()).toBe(false);
    await screenshot(page, 'dashboard-page-presentation');
    await page.getByTestId('dashboard-presentation').click();
    await poll(() => page.getByTestId('main-menu').isVisible()).toBe(true);

    // a block display item: the cases of a client, summed on the client's page through the link
    const caseAmounts = await call(page, 'post', '/api/mypageblock', {
      environment,
      type: 'sum_fields',
      defDossier: ids.case,
      dashboard: false,
      translations: [{ culture: 'en_GB', title: 'Amount of this client' }],
      settings: { sum_field: ids.amount },
    });
    await call(page, 'post', '/api/displayitem', {
      environment,
      defDossier: ids.client,
      displayPosition: ids.clientMain,
      view: 'show',
      rank: 99,
      col: 1,
      colspan: 12,
      settings: { block: caseAmounts.id, block_link: ids.link },
    });
    await page.goto(`/contentdossier/${ids.anna}`);
    const onPage = page.getByTestId('dossier-block');
    await onPage.waitFor();
    // Anna's cases: housing application 1,250 and debt counselling 3,200
    await expect
      .poll(() => onPage.getByTestId('block-sum').textContent())
      .toBe((4450).toLocaleString('en-GB'));
    await onPage.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-page-dossier-block');
  } finally {
    await close();
  }
}, 240_000);

test("a list block's calendar of three days (react-big-calendar's agenda) shows the items of its custom view", async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await page.setViewportSize({ width: 1280, height: 1300 });
    await openDemoAsAdmin(page, stack.baseUrl);
    // a custom view of the cases: their title and due date
    await call(page, 'post', '/api/displaycustomview', {
      environment,
      defDossier: ids.case,
      viewName: 'Planning',
    });
    const item = async (name: string) =>
      (
        await stack.db
          .insertInto('display_item')
          .values({
            environment_id: environment,
            def_dossier_id: ids.case,
            display_position_id: null,
            def_dossier_def_field_id: await field(name),
            def_dossier_link_id: null,
            view: 'Planning',
            roles: [],
            translations: JSON.stringify([{ culture: 'en_GB', name: name.replace('_', ' ') }]),
            settings: {},
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const title = await item('Title');
    const due = await item('Due_date');
    // one case due tomorrow
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const dueField = String(await field('Due_date'));
    const kase = await stack.db
      .selectFrom('content_dossier')
      .select(['id', 'summary'])
      .where('environment_id', '=', environment)
      .where('def_dossier_id', '=', ids.case)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await sql`update content_dossier set "values" = jsonb_set("values", ${sql.lit(`{${dueField}}`)}, to_jsonb(${tomorrow}::text))
      where environment_id = ${environment} and id = ${kase.id}`.execute(stack.db);
    await call(page, 'post', '/api/mypageblock', {
      environment,
      type: 'dashboard',
      defDossier: ids.case,
      translations: [{ culture: 'en_GB', title: 'Planned cases' }],
      settings: {
        view_name: 'Planning',
        layout: 'calendar',
        template: 'calendar',
        templateOptions: { name: title, start: due },
        limit: 50,
      },
    });
    await page.reload();
    const block = blockNamed(page, 'Planned cases');
    await block.getByTestId('block-calendar').waitFor();
    // the agenda of three days from today: the case due tomorrow, named by its title
    const caseTitle = (
      await stack.db
        .selectFrom('content_dossier')
        .select(sql<string>`"values" ->> ${String(await field('Title'))}`.as('title'))
        .where('id', '=', kase.id)
        .executeTakeFirstOrThrow()
    ).title;
    const event = block.getByTestId('block-calendar-event').filter({ hasText: caseTitle });
    await event.waitFor();
    expect(await event.getByRole('link').getAttribute('href')).toBe(`/contentdossier/${kase.id}`);
    await screenshot(page, 'dashboard-page-calendar');
    // three days on: the case is behind
    const label = block.locator('.rbc-toolbar-label');
    const range = await label.textContent();
    // by keyboard: the grid may still move the block while the other blocks draw
    await block.getByRole('button', { name: 'Next', exact: true }).focus();
    await page.keyboard.press('Enter');
    await poll(() => label.textContent()).not.toBe(range);
    await poll(() => event.count()).toBe(0);
  } finally {
    await close();
  }
}, 120_000);
