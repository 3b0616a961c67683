import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossier } from './dossier-fixture';
import {
  ARTIFACTS,
  DEMO_PASSWORD,
  openBrowser,
  openDemoAs,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  startStack,
} from './harness';

// The dossier action bar (issue 18 part 1): an admin copies a dossier's link and opens it in a new
// tab, archives it (confirmed) and de-archives it, and deletes another one, which leads to the list.
// The change log (part 2): a member edits a dossier and reads its log. The bulk bar (part 4):
// archive three, subscribe one, delete two of which one fails. Export (part 3): a list to CSV, one
// dossier as PDF and Word.

let stack: Stack;
let fixture: EveryTypeEntity;
beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Casefile');
  await stack.db
    .updateTable('def_dossier')
    .set({ archivable: true })
    .where('id', '=', fixture.entity.id)
    .execute();
});
afterAll(() => stack?.close());

const name = (values: string) => ({ [String(fixture.fields.Name.dataFieldId)]: values });

test('copy a dossier link and open it; archive, de-archive and delete from the action bar', async () => {
  const first = await insertDossier(stack.db, fixture.entity, 'Linked case', name('Linked case'));
  const second = await insertDossier(stack.db, fixture.entity, 'Doomed case', name('Doomed case'));
  const { context, page, close } = await openBrowser(stack.baseUrl);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  try {
    await openDemoAsAdmin(
      page,
      stack.baseUrl,
      `/contentdossier/${first}?selectedTab=${fixture.tabPositionId}`,
    );
    await page.getByTestId('dossier-action-bar').waitFor();
    await screenshot(page, 'dossier-action-bar');

    // Share > Copy link, with the keyboard: the toast, and the address on the clipboard
    await page.getByTestId('dossier-share').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('dossier-copy-link').waitFor();
    await screenshot(page, 'dossier-share-menu');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('notification-success').filter({ hasText: 'Link Copied' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${stack.baseUrl}/contentdossier/${first}?selectedTab=${fixture.tabPositionId}`);

    // the link opens the dossier on that tab in another tab of the browser
    const other = await context.newPage();
    await other.goto(link);
    await other.getByTestId('dossier-title').filter({ hasText: 'Linked case' }).waitFor();
    expect(
      await other.getByTestId(`dossier-tab-${fixture.tabPositionId}`).getAttribute('aria-selected'),
    ).toBe('true');
    await other.close();

    // archive asks first; de-archive does not
    await page.getByTestId('dossier-archive').click();
    await page.getByTestId('dossier-archive-modal').waitFor();
    await screenshot(page, 'dossier-archive-confirm');
    await page.getByTestId('dossier-archive-confirm').click();
    await page.getByTestId('dossier-archived-banner').waitFor();
    await page.getByTestId('dossier-dearchive').click();
    await page.getByTestId('dossier-archive').waitFor();
    expect(await page.getByTestId('dossier-archived-banner').count()).toBe(0);

    // the field designer link is there for an admin
    expect(await page.getByTestId('dossier-field-designer').getAttribute('href')).toBe(
      `/fieldeditor/${fixture.entity.id}`,
    );

    // delete asks, then leads to the entity's list
    await page.goto(`/contentdossier/${second}`);
    await page.getByTestId('dossier-delete').click();
    await page.getByTestId('dossier-delete-modal').waitFor();
    await screenshot(page, 'dossier-delete-confirm');
    await page.getByTestId('dossier-delete-confirm').click();
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);
    const gone = await stack.db
      .selectFrom('content_dossier')
      .select('id')
      .where('id', '=', second)
      .executeTakeFirst();
    expect(gone).toBeUndefined();
  } finally {
    await close();
  }
});

test("a member edits a dossier and reads its log: filtered by type and user, labels shown, the hidden field's change absent", async () => {
  const { Status, Secret } = fixture.fields;
  const id = await insertDossier(stack.db, fixture.entity, 'Logged case', {
    ...name('Logged case'),
    [String(Status.dataFieldId)]: fixture.options.open,
    [String(Secret.dataFieldId)]: 'classified-xyz',
  });
  // an admin's earlier change of the field the demo user may not see (by item id, and an old-style
  // entry by name only)
  await stack.db
    .insertInto('dossier_log')
    .values({
      environment_id: fixture.environmentId,
      content_dossier_id: id,
      def_dossier_id: fixture.entity.id,
      type: 'change',
      user_id: fixture.adminUserId,
      username: 'admin',
      changes: JSON.stringify([
        {
          displayItemId: Secret.itemId,
          defDisplayItemName: 'Secret',
          oldValue: null,
          newValue: 'classified-xyz',
        },
        { defDisplayItemName: 'Secret', oldValue: null, newValue: 'classified-xyz' },
      ]) as never,
    })
    .execute();
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAs(page, stack.baseUrl, 'demo', DEMO_PASSWORD, `/contentdossier/${id}`);
    await page.getByTestId('dossier-edit').click();
    await page.getByTestId(`dossier-item-${Status.itemId}`).locator('input').first().click();
    await page.getByRole('option', { name: 'Closed', exact: true }).click();
    await page.getByTestId('dossier-save-close').click();
    await page.getByTestId('dossier-edit').waitFor();
    // no archive (no permission), no field designer (not an admin)
    expect(await page.getByTestId('dossier-archive').count()).toBe(0);
    expect(await page.getByTestId('dossier-field-designer').count()).toBe(0);

    await page.getByTestId('dossier-history').click();
    await page.getByTestId('dossier-history-modal').waitFor();
    await page.getByTestId('log-row').first().waitFor();
    // the type filter: Changed only
    await page.getByTestId('dossier-history-type').click();
    await page.getByRole('option', { name: 'Changed', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('log-row').count()).toBe(2);
    const changes = await page.getByTestId('log-change').allTextContents();
    expect(changes).toContain('Status: Open → Closed');
    const modalText = await page.getByTestId('dossier-history-modal').textContent();
    expect(modalText).not.toContain('classified-xyz');
    expect(modalText).not.toContain('Secret');
    // and the demo user's own entries only
    await page.getByTestId('dossier-history-user').click();
    await page.getByRole('option', { name: 'demo', exact: true }).click();
    await expect.poll(() => page.getByTestId('log-row').count()).toBe(1);
    await screenshot(page, 'dossier-log-modal');
  } finally {
    await close();
  }
});

test('bulk: archive three dossiers, subscribe one (its bell), delete two of which one fails, with the report', async () => {
  const bulk = await buildEveryTypeEntity(stack.db, 'Bulkfile');
  await stack.db
    .updateTable('def_dossier')
    .set({ archivable: true })
    .where('id', '=', bulk.entity.id)
    .execute();
  const ids: number[] = [];
  for (const n of [1, 2, 3, 4, 5])
    ids.push(
      await insertDossier(stack.db, bulk.entity, `Bulk ${n}`, {
        [String(bulk.fields.Name.dataFieldId)]: `Bulk ${n}`,
      }),
    );
  const row = (page: Page, id: number) =>
    page.locator(`[data-testid="dossier-row"][data-dossier-id="${id}"]`);
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/defdossier/${bulk.entity.id}`);
    await row(page, ids[0]).waitFor();
    for (const id of ids.slice(0, 3)) await row(page, id).getByTestId('dossier-row-select').check();
    await page.getByTestId('dossier-bulk-bar').waitFor();
    await screenshot(page, 'dossier-bulk-bar');
    await page.getByTestId('dossier-bulk-more').click();
    // nothing selected is subscribed: no Stop subscription
    await page.getByTestId('dossier-bulk-archive').waitFor();
    expect(await page.getByTestId('dossier-bulk-unsubscribe').count()).toBe(0);
    await page.getByTestId('dossier-bulk-archive').click();
    await page.getByTestId('dossier-bulk-dialog').waitFor();
    await page.getByTestId('dossier-bulk-confirm-ok').click();
    await page.getByTestId('dossier-bulk-bar').waitFor({ state: 'detached' });
    const archived = await stack.db
      .selectFrom('content_dossier')
      .select(['id', 'archived'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(archived.map((r) => r.archived)).toEqual([true, true, true, false, false]);
    // the archived rows leave the list (not archived is the default filter)
    await row(page, ids[0]).waitFor({ state: 'detached' });

    // subscribe the fourth: its row shows the bell, and Stop subscription is offered for it
    await row(page, ids[3]).getByTestId('dossier-row-select').check();
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-subscribe').click();
    await row(page, ids[3]).getByTestId('dossier-subscribed-badge').waitFor();
    expect(await row(page, ids[4]).getByTestId('dossier-subscribed-badge').count()).toBe(0);
    await row(page, ids[3]).getByTestId('dossier-row-select').check();
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-unsubscribe').waitFor();
    await page.keyboard.press('Escape');

    // delete the fourth and fifth; the fifth is deleted elsewhere first: it fails, the fourth goes
    await row(page, ids[4]).getByTestId('dossier-row-select').check();
    await stack.db.deleteFrom('content_dossier').where('id', '=', ids[4]).execute();
    await page.getByTestId('dossier-bulk-delete').click();
    await page.getByTestId('dossier-bulk-confirm-ok').click();
    await page.getByTestId('dossier-bulk-failures').waitFor();
    expect(await page.getByTestId('dossier-bulk-failure').allTextContents()).toEqual([
      'Bulk 5: Something went wrong',
    ]);
    await screenshot(page, 'dossier-bulk-failures');
    const left = await stack.db.selectFrom('content_dossier').select('id').where('id', '=', ids[3]).execute();
    expect(left).toEqual([]);
    await page.getByTestId('dossier-bulk-close').click();
    await page.getByTestId('dossier-bulk-bar').waitFor({ state: 'detached' });
  } finally {
    await close();
  }
});

test('export a list to CSV and one dossier as PDF and Word; the field hidden from the user is in neither', async () => {
  const ex = await buildEveryTypeEntity(stack.db, 'Exportfile');
  const { Name, Status, Secret } = ex.fields;
  // the demo user's role may export CSV, PDF and Word here
  await stack.db
    .updateTable('permission')
    .set({ actions: ['show', 'export', 'export_csv', 'export_pdf', 'export_word'] })
    .where('def_dossier_id', '=', ex.entity.id)
    .where('role_id', '=', ex.caseworkerRoleId)
    .execute();
  const names = ['Export "one"', 'Export two', 'Export three'];
  const ids: number[] = [];
  for (const [index, text] of names.entries())
    ids.push(
      await insertDossier(stack.db, ex.entity, text, {
        [String(Name.dataFieldId)]: text,
        [String(Status.dataFieldId)]: index === 1 ? ex.options.closed : ex.options.open,
        [String(Secret.dataFieldId)]: `classified-${index}`,
      }),
    );
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAs(page, stack.baseUrl, 'demo', DEMO_PASSWORD, `/defdossier/${ex.entity.id}`);
    await page.getByTestId('dossier-row').first().waitFor();
    await page.getByTestId('dossier-list-export').click();
    await page.getByTestId('export-dialog').waitFor();
    // a list exports as CSV only
    expect(await page.getByTestId('export-kind-pdf').count()).toBe(0);
    await screenshot(page, 'export-dialog-list');
    await page.getByTestId('export-start').click();
    await page.getByTestId('export-download').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^${ex.entity.id}_Exportfile_\\d{8}T\\d{6}\\.csv$`),
    );
    const file = await readFile((await download.path()) as string, 'utf8');
    const rows = parse(file, { bom: true }) as string[][];
    expect(rows[0][0]).toBe('dossier_id');
    expect(rows[0]).toContain('Name');
    expect(rows[0]).toContain('Status');
    expect(rows[0]).not.toContain('Secret');
    expect(file).not.toContain('classified');
    const name = rows[0].indexOf('Name');
    const status = rows[0].indexOf('Status');
    const body = rows.slice(1).sort((x, y) => Number(x[0]) - Number(y[0]));
    expect(body.map((r) => [Number(r[0]), r[name], r[status]])).toEqual([
      [ids[0], names[0], 'Open'],
      [ids[1], names[1], 'Closed'],
      [ids[2], names[2], 'Open'],
    ]);
    await screenshot(page, 'export-dialog-finished');
    await page.getByTestId('export-cancel').click();

    // one dossier as PDF, then as Word
    await page.goto(`/contentdossier/${ids[0]}`);
    await page.getByTestId('dossier-export').click();
    await page.getByTestId('export-dialog').waitFor();
    await page.getByTestId('export-kind-pdf').check();
    await page.getByTestId('export-start').click();
    await page.getByTestId('export-download').waitFor();
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-download').click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    const pdfFile = path.join(ARTIFACTS, 'dossier-export.pdf');
    await pdf.saveAs(pdfFile);
    expect((await readFile(pdfFile)).subarray(0, 5).toString()).toBe('%PDF-');
    await screenshot(page, 'export-dialog-pdf');
    await page.getByTestId('export-kind-docx').check();
    await page.getByTestId('export-start').click();
    const [word] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-download').click(),
    ]);
    expect(word.suggestedFilename()).toMatch(/\.docx$/);
    const xml = await (await JSZip.loadAsync(await readFile((await word.path()) as string)))
      .file('word/document.xml')
      ?.async('string');
    expect(xml).toContain('one');
    expect(xml).not.toContain('classified');
  } finally {
    await close();
  }
});
