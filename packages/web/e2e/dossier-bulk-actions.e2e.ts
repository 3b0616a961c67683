import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossier } from './dossier-fixture';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Issue 18 parts 5 to 7, reached from the list's bulk bar: the mass update page (a status on five
// dossiers), the merge wizard (two dossiers with a custom link choice) and the multiple create modal
// (twelve dossiers, monthly on the last Friday).

let stack: Stack;
let fixture: EveryTypeEntity;
beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Bulkcase');
  await stack.db
    .updateTable('def_dossier')
    .set({ archivable: true })
    .where('id', '=', fixture.entity.id)
    .execute();
});
afterAll(() => stack?.close());

const row = (page: Page, id: number) => page.locator(`[data-testid="dossier-row"][data-dossier-id="${id}"]`);

async function dossiers(names: string[]) {
  const ids: number[] = [];
  for (const name of names)
    ids.push(
      await insertDossier(stack.db, fixture.entity, name, {
        [String(fixture.fields.Name.dataFieldId)]: name,
        [String(fixture.fields.Status.dataFieldId)]: fixture.options.open,
      }),
    );
  return ids;
}

test('mass update: the status of five dossiers, from the bulk bar, each logged', async () => {
  const ids = await dossiers(['Mass 1', 'Mass 2', 'Mass 3', 'Mass 4', 'Mass 5']);
  const { Status, Name } = fixture.fields;
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.goto(`/defdossier/${fixture.entity.id}`);
    await row(page, ids[0]).waitFor();
    for (const id of ids) await row(page, id).getByTestId('dossier-row-select').check();
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-massupdate').click();
    await page.getByTestId('mass-update-page').waitFor();
    expect(await page.getByTestId('mass-update-title').textContent()).toContain('Mass update');
    expect(await page.getByTestId('mass-update-count').textContent()).toContain('5');
    // multi-update mode: the obligatory Name is not required, no default filled in
    const nameInput = page.getByTestId(`dossier-item-${Name.itemId}`).locator('input').first();
    expect(await nameInput.getAttribute('required')).toBeNull();
    expect(await nameInput.inputValue()).toBe('');
    await page.getByTestId('mass-update-overwrite').check();
    await page.getByTestId(`dossier-item-${Status.itemId}`).locator('input').first().click();
    await page.getByRole('option', { name: 'Closed', exact: true }).click();
    await screenshot(page, 'mass-update-page');
    await page.getByTestId('mass-update-submit').click();
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);
    await page.getByTestId('dossier-list-page').waitFor();
    const rows = await stack.db
      .selectFrom('content_dossier')
      .select(['id', 'values'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => (r.values as Record<string, unknown>)[String(Status.dataFieldId)])).toEqual(
      ids.map(() => fixture.options.closed),
    );
    expect(rows.map((r) => (r.values as Record<string, unknown>)[String(Name.dataFieldId)])).toEqual([
      'Mass 1',
      'Mass 2',
      'Mass 3',
      'Mass 4',
      'Mass 5',
    ]);
    const logs = await stack.db
      .selectFrom('dossier_log')
      .select('content_dossier_id')
      .where('content_dossier_id', 'in', ids)
      .where('type', '=', 'change')
      .execute();
    expect(logs).toHaveLength(5);
  } finally {
    await close();
  }
});
