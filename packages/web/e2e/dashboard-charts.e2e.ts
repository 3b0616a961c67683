import {
  defDossierDefFieldCreateSchema,
  defFieldCreateSchema,
  displayItemCreateSchema,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDataField } from '../../server/src/resources/def-dossier-def-field/service';
import { createDefField } from '../../server/src/resources/def-field/service';
import { createDisplayItem } from '../../server/src/resources/display-item/service';
import { seedDemoRecords } from '../../server/src/seed-records';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// The chart blocks drawn with nivo on the demo records: a count by link (stacked, horizontal, in a
// colour scheme), percentages of a saved query (pies), a funnel of the case statuses, dossiers per
// month of the due date (a line), a map of the clients, new dossiers per weekday, a table in layout
// ver3 with its totals, and a line asked to be horizontal, which says Not supported settings. Every
// chart is an image with a summary and its figures for screen readers (axe passes). The admin then
// changes a block's colour scheme and table layout in the editor's Block type specific tab, reads
// what the layouts are on the Info tab, and sees the block drawn anew.

let stack: Stack;
let environment: number;
const ids: Record<string, number> = {};

/** A data field of a demo entity, by name. */
const dataField = (entity: number, name: string) =>
  stack.db
    .selectFrom('def_dossier_def_field')
    .select(['id', 'def_field_id'])
    .where('def_dossier_id', '=', entity)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();

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
  const status = await dataField(ids.case, 'Case_status');
  ids.status = status.id;
  ids.due = (await dataField(ids.case, 'Due_date')).id;
  ids.link = (
    await stack.db
      .selectFrom('def_dossier_link')
      .select('id')
      .where('def_dossier_id', '=', ids.case)
      .where('name', '=', 'Client')
      .executeTakeFirstOrThrow()
  ).id;
  const options = await stack.db
    .selectFrom('def_field_list')
    .select(['id', 'translations'])
    .where('def_field_id', '=', status.def_field_id)
    .execute();
  const open = options.find((o) => o.translations[0]?.text === 'Open');
  if (!open) throw new Error('no Open status');
  // a saved query of the open cases (3 of the 5)
  ids.openCases = (
    await stack.db
      .insertInto('dossier_query')
      .values({
        environment_id: environment,
        def_dossier_id: ids.case,
        data: JSON.stringify({
          combinators: [
            {
              combine: 'AND',
              fields: [{ id: status.id, type: 'equals', value: open.id }],
              links: [],
              combinators: [],
            },
          ],
          include_archived: 'none_archived',
        }),
        translations: JSON.stringify([{ culture: 'en_GB', search_name: 'Open cases', dashboard_name: '' }]),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // a location for the clients: two in Amsterdam, one in Haarlem
  const base = await createDefField(
    stack.db,
    defFieldCreateSchema.parse({ environment, name: 'Location', type: 'geolocation', settings: {} }),
  );
  const location = await createDataField(
    stack.db,
    defDossierDefFieldCreateSchema.parse({
      environment,
      defDossier: ids.client,
      defField: base.id,
      name: 'Location',
    }),
  );
  // shown on the client's page, so the query compiler (and the map) reads it
  const main = await stack.db
    .selectFrom('display_position')
    .select('id')
    .where('def_dossier_id', '=', ids.client)
    .where('type', '=', 'main_content')
    .executeTakeFirstOrThrow();
  await createDisplayItem(
    stack.db,
    displayItemCreateSchema.parse({
      environment,
      defDossier: ids.client,
      displayPosition: main.id,
      defDossierDefField: location.id,
      view: 'show/edit',
      rank: 90,
      colspan: 12,
    }),
  );
  const clients = await stack.db
    .selectFrom('content_dossier')
    .select('id')
    .where('def_dossier_id', '=', ids.client)
    .orderBy('id')
    .execute();
  const points = [
    { lat: 52.3731, lng: 4.8922 },
    { lat: 52.3584, lng: 4.8811 },
    { lat: 52.3874, lng: 4.6462 },
  ];
  for (const [index, point] of points.entries())
    await stack.db
      .updateTable('content_dossier')
      .set({ values: sql`"values" || ${JSON.stringify({ [location.id]: point })}::jsonb` })
      .where('id', '=', clients[index].id)
      .execute();
}, 120_000);
afterAll(() => stack?.close());

async function addBlock(
  title: string,
  type: string,
  defDossier: number | null,
  settings: Record<string, unknown>,
) {
  const row = await stack.db
    .insertInto('mypage_block')
    .values({
      environment_id: environment,
      type,
      def_dossier_id: defDossier,
      translations: [{ culture: 'en_GB', title }],
      settings,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const blockNamed = (page: Page, title: string) =>
  page
    .locator('[data-testid="grid-item"]')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function choose(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test('every chart block is drawn with nivo, named for screen readers, and its settings change how it is drawn', async () => {
  const byLink = await addBlock('Cases per client', 'count_link_options', ids.case, {
    count_link_field: ids.link,
    use_creation_date: true,
    date_format: 'year',
    chart_format: 'bar',
    group_format: 'stacked',
    chart_layout: 'horizontal',
    scheme: 'dark2',
    enable_labels: 'yes',
    legend_direction: 'top-to-bottom',
  });
  await addBlock('Open share', 'list_option_percentage_conditions', ids.case, {
    pie_charts: [
      { title: 'Open cases', color: '#1c7ed6', total_query: null, dossier_query: ids.openCases },
      { title: 'All cases', color: null, total_query: null, dossier_query: null },
    ],
  });
  await addBlock('Case funnel', 'funnel', ids.case, { list_field: ids.status, enable_labels: 'yes' });
  await addBlock('Cases due per month', 'date_statistics', ids.case, {
    period: 'month',
    date_field: ids.due,
    chart_format: 'line',
    enable_labels: 'yes',
  });
  await addBlock('Client map', 'geomap', ids.client, {});
  await addBlock('New per weekday', 'new_dossier_statistics', null, { scheme: 'set1' });
  const table = await addBlock('Status table', 'count_list_options', ids.case, {
    count_list_field: ids.status,
    date_field: ids.due,
    date_format: 'year',
    chart_format: 'table',
    table_layout: 'ver3',
  });
  await addBlock('Sideways line', 'count_list_options', ids.case, {
    count_list_field: ids.status,
    use_creation_date: true,
    chart_format: 'line',
    chart_layout: 'horizontal',
  });

  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    // tall enough for every block to be on screen (blocks load when seen)
    await page.setViewportSize({ width: 1280, height: 2200 });
    await openDemoAsAdmin(page, stack.baseUrl);
    await expect.poll(() => page.getByTestId('dashboard-block').count()).toBe(8);
    await expect
      .poll(() => page.locator('[data-testid="dashboard-block"] .mantine-Loader-root').count(), {
        timeout: 20_000,
      })
      .toBe(0);

    // count by link: a stacked horizontal bar per client, each bar drawn in the scheme's colours
    const links = blockNamed(page, 'Cases per client').getByTestId('block-chart');
    expect(await links.getAttribute('data-format')).toBe('bar');
    expect(await links.getAttribute('role')).toBe('img');
    expect(await links.getAttribute('aria-label')).toContain('Anna de Vries');
    const bars = links.locator('svg rect[fill]');
    await expect.poll(() => bars.count()).toBeGreaterThan(0);
    // dark2's first colours
    const fills = await links
      .locator('svg rect')
      .evaluateAll((rects) => rects.map((r) => getComputedStyle(r).fill));
    expect(fills).toContain('rgb(27, 158, 119)');
    // its figures for screen readers: four clients, five cases in all
    const figures = blockNamed(page, 'Cases per client').getByTestId('block-figures');
    expect(await figures.locator('thead th').allTextContents()).toEqual(
      expect.arrayContaining(['Period', 'Anna de Vries', 'Bram Jansen', 'Chantal Bakker', 'Daan Visser']),
    );
    const counts = await figures.locator('tbody td').allTextContents();
    expect(counts.map(Number).reduce((n, v) => n + v, 0)).toBe(5);

    // percentages: 3 of 5 cases are open; all of them are all
    const pies = blockNamed(page, 'Open share').getByTestId('block-percentage');
    expect(await pies.count()).toBe(2);
    expect(await pies.nth(0).getByTestId('block-chart').getAttribute('aria-label')).toBe(
      'Open cases: 60% (3 of 5)',
    );
    expect(await pies.nth(1).getByTestId('block-chart').getAttribute('aria-label')).toBe(
      'All cases: 100% (5 of 5)',
    );
    expect(await pies.nth(0).locator('svg path').count()).toBeGreaterThan(0);

    // funnel: the statuses in rank order with their counts, as parts of the funnel
    const funnel = blockNamed(page, 'Case funnel').getByTestId('block-funnel');
    expect(await funnel.getByTestId('block-chart').getAttribute('aria-label')).toBe(
      'Funnel: Open 3, Waiting 1, Closed 1',
    );
    expect(await funnel.locator('svg path').count()).toBeGreaterThanOrEqual(3);

    // dossiers per month of the due date: a line through four months
    const line = blockNamed(page, 'Cases due per month').getByTestId('block-chart');
    expect(await line.getAttribute('data-format')).toBe('line');
    expect(
      await blockNamed(page, 'Cases due per month')
        .getByTestId('block-figures')
        .locator('tbody th')
        .allTextContents(),
    ).toEqual(['2026-10', '2026-12', '2027-01', '2027-02']);
    expect(await line.locator('svg path').count()).toBeGreaterThan(0);

    // the map: a marker per located client, and the same clients as links
    const map = blockNamed(page, 'Client map').getByTestId('block-geomap');
    await expect.poll(() => map.locator('.leaflet-marker-icon').count()).toBe(3);
    expect(await map.getByRole('link').allTextContents()).toHaveLength(3);

    // new dossiers per weekday: three weeks as lines over seven days
    const weekdays = blockNamed(page, 'New per weekday');
    expect(await weekdays.getByTestId('block-chart').getAttribute('data-format')).toBe('line');
    expect(await weekdays.getByTestId('block-figures').locator('tbody tr').count()).toBe(7);

    // the table in layout ver3: a total per year and per status
    const statusTable = blockNamed(page, 'Status table').getByTestId('block-figures');
    expect(await statusTable.getAttribute('data-layout')).toBe('ver3');
    expect(await statusTable.locator('thead th').allTextContents()).toEqual([
      'Period',
      'Open',
      'Waiting',
      'Closed',
      'Total',
    ]);
    expect(await statusTable.locator('tfoot td').allTextContents()).toEqual(['3', '1', '1', '5']);

    // a horizontal line cannot be drawn
    await blockNamed(page, 'Sideways line').getByTestId('block-not-supported').waitFor();
    expect(await blockNamed(page, 'Sideways line').getByTestId('block-chart').count()).toBe(0);
    await screenshot(page, 'dashboard-charts');

    // the editor: the table's layout becomes ver2 (turned round) and the count by link a pie
    await blockNamed(page, 'Status table').getByRole('button', { name: 'Edit block Status table' }).click();
    await page.getByTestId('block-tab-specific').click();
    await page.getByTestId('block-chart-settings').waitFor();
    await choose(page, 'block-setting-table_layout', 'Layout 2');
    await page
      .getByTestId('block-editor')
      .getByText('Turned round: a row per series and a column per period.')
      .waitFor();
    await screenshot(page, 'dashboard-charts-editor');
    await page.getByTestId('block-tab-info').click();
    const layouts = page.getByTestId('block-table-layouts');
    expect(await layouts.locator('tbody tr').count()).toBe(6);
    await screenshot(page, 'dashboard-charts-info');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/mypageblock/${table}`) && r.request().method() === 'PATCH',
    );
    await page.getByTestId('block-editor-save').click();
    expect((await saved).status()).toBe(200);
    await page.getByTestId('block-editor').waitFor({ state: 'detached' });
    const turned = blockNamed(page, 'Status table').getByTestId('block-figures');
    await expect.poll(() => turned.getAttribute('data-layout')).toBe('ver2');
    expect(await turned.locator('tbody th').allTextContents()).toEqual(['Open', 'Waiting', 'Closed']);

    // a pie may not be stacked: the editor says so before saving, by keyboard
    await blockNamed(page, 'Cases per client')
      .getByRole('button', { name: 'Edit block Cases per client' })
      .click();
    await page.getByTestId('block-tab-specific').click();
    await choose(page, 'block-setting-chart_format', 'Pie chart');
    await page.getByTestId('block-editor-unsupported').waitFor();
    await choose(page, 'block-setting-group_format', 'Side by side');
    await choose(page, 'block-setting-chart_layout', 'Vertical');
    await expect.poll(() => page.getByTestId('block-editor-unsupported').count()).toBe(0);
    // the scheme by keyboard: type to filter, arrow to the second match, Enter
    await page.getByTestId('block-setting-scheme').fill('pastel');
    await page.getByRole('option', { name: 'pastel2' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('block-setting-scheme').inputValue()).toBe('pastel2');
    const patched = page.waitForResponse(
      (r) => r.url().endsWith(`/mypageblock/${byLink}`) && r.request().method() === 'PATCH',
    );
    await page.getByTestId('block-editor-save').click();
    expect((await patched).status()).toBe(200);
    await page.getByTestId('block-editor').waitFor({ state: 'detached' });
    const pie = blockNamed(page, 'Cases per client').getByTestId('block-chart');
    await expect.poll(() => pie.getAttribute('data-format')).toBe('pie');
    // pastel2's first colour
    await expect
      .poll(() => pie.locator('svg path').evaluateAll((paths) => paths.map((p) => getComputedStyle(p).fill)))
      .toContain('rgb(179, 226, 205)');
    await screenshot(page, 'dashboard-charts-after');
  } finally {
    await close();
  }
}, 240_000);
