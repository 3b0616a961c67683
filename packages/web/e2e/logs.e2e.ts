import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemoRecords } from '../../server/src/seed-records';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// The change log: an admin edits a demo dossier (through the API, as the browser's session), finds the
// change in Admin settings > Logs with the type filter, follows it to the dossier and opens its History.

let stack: Stack;
let dossier: { id: number; summary: string };
let textItem: { id: number; name: string; def_dossier_id: number };
beforeAll(async () => {
  stack = await startStack();
  await seedDemoRecords(stack.db);
  const demo = await stack.db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  // a text field on the dossier page of a demo entity that holds dossiers
  textItem = await stack.db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as f', 'f.id', 'i.def_dossier_def_field_id')
    .innerJoin('def_field as b', 'b.id', 'f.def_field_id')
    .select(['i.id', 'f.name', 'i.def_dossier_id'])
    .where('i.environment_id', '=', demo.id)
    .where('i.view', '=', 'show/edit')
    .where('b.type', '=', 'text')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('content_dossier as d')
          .select('d.id')
          .whereRef('d.def_dossier_id', '=', 'i.def_dossier_id'),
      ),
    )
    .orderBy('i.id')
    .executeTakeFirstOrThrow();
  const row = await stack.db
    .selectFrom('content_dossier')
    .select(['id', 'summary'])
    .where('def_dossier_id', '=', textItem.def_dossier_id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  dossier = { id: Number(row.id), summary: row.summary };
});
afterAll(() => stack?.close());

test('an admin finds a change in the environment log, filters it, and reads the dossier history', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    const status = await page.evaluate(
      async ({ id, item, header, value }) => {
        const response = await fetch(`/api/contentdossier/${id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', [header]: value },
          body: JSON.stringify({ values: { [item]: 'Changed for the log' } }),
        });
        return response.status;
      },
      { id: dossier.id, item: String(textItem.id), header: CSRF_HEADER, value: CSRF_VALUE },
    );
    expect(status).toBe(200);

    await page.getByTestId('menu-admin').click();
    await page.getByTestId('menu-admin-logs').click();
    await page.getByTestId('logs-page').waitFor();
    await page.getByTestId('log-row').first().waitFor();
    await screenshot(page, 'logs-page');
    // only changes: the edit above, with its field and new value
    await page.getByTestId('log-filter-type').click();
    await page.getByRole('option', { name: 'Changed', exact: true }).click();
    await expect.poll(() => page.getByTestId('log-row').count()).toBe(1);
    const change = page.getByTestId('log-change').first();
    expect(await change.textContent()).toContain(`${textItem.name}:`);
    expect(await change.textContent()).toContain('Changed for the log');
    await screenshot(page, 'logs-filtered');
    // a day with no changes
    await page.getByTestId('log-filter-to').fill('2001-01-01');
    await page.getByTestId('log-empty').waitFor();
    await page.getByTestId('log-filter-to').fill('');
    await page.getByTestId('log-row').first().waitFor();

    await page.getByTestId('log-row').first().getByRole('link').click();
    await page.waitForURL(`**/contentdossier/${dossier.id}`);
    await page.getByTestId('dossier-history').click();
    const modal = page.getByTestId('dossier-history-modal');
    await modal.getByTestId('log-row').first().waitFor();
    expect(await modal.getByTestId('log-change').first().textContent()).toContain('Changed for the log');
    await screenshot(page, 'dossier-history');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
  } finally {
    await close();
  }
});
