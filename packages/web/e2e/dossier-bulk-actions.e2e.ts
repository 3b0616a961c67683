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
    await openDemoAsAdmin(page, stack.baseUrl, `/defdossier/${fixture.entity.id}`);
    await row(page, ids[0]).waitFor();
    for (const id of ids) await row(page, id).getByTestId('dossier-row-select').check();
    // with the keyboard: More actions, down to Mass update, Enter
    await page.getByTestId('dossier-bulk-more').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('dossier-bulk-massupdate').waitFor();
    for (let i = 0; i < 10; i++) {
      if (await page.getByTestId('dossier-bulk-massupdate').evaluate((e) => e === document.activeElement))
        break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
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

test('merge two dossiers with a custom link choice; the old two deleted; the confirmation opens the new one', async () => {
  const { Name, Amount, Organisation } = fixture.fields;
  const { acme, globex } = fixture.linkedDossiers;
  const [first] = await dossiers(['Merge left']);
  const second = await insertDossier(stack.db, fixture.entity, 'Merge right', {
    [String(Name.dataFieldId)]: 'Merge right',
    [String(Amount.dataFieldId)]: 42,
  });
  await stack.db
    .insertInto('content_link')
    .values([
      {
        environment_id: fixture.environmentId,
        link_id: fixture.linkId,
        parent_id: first,
        child_id: acme,
        rank: 0,
      },
      {
        environment_id: fixture.environmentId,
        link_id: fixture.linkId,
        parent_id: second,
        child_id: globex,
        rank: 0,
      },
    ])
    .execute();
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/defdossier/${fixture.entity.id}`);
    await row(page, first).waitFor();
    await row(page, first).getByTestId('dossier-row-select').check();
    await row(page, second).getByTestId('dossier-row-select').check();
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-merge').click();
    await page.getByTestId('merge-step-option').waitFor();
    // Next without an option, then the option and Next with the keyboard
    await page.getByTestId('merge-next').focus();
    await page.keyboard.press('Enter');
    await page.getByText('You must select an option').waitFor();
    await screenshot(page, 'merge-step-option');
    await page.getByTestId('merge-option-keep').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByTestId('merge-option-delete').isChecked()).toBe(true);
    await page.getByTestId('merge-next').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('merge-table').waitFor();
    // the second's name and amount; the first has no amount: its radio is disabled
    // the columns follow the list's order
    const header = await page.getByTestId('merge-table').locator('th').nth(1).textContent();
    const secondSide = header === 'Merge right' ? 'left' : 'right';
    await page.getByTestId(`merge-radio-${Name.itemId}-${secondSide}`).check();
    expect(await page.getByTestId(`merge-row-${Amount.itemId}`).getByText('There is no value.').count()).toBe(
      1,
    );
    await page.getByTestId(`merge-radio-${Amount.itemId}-${secondSide}`).waitFor();
    // Finish without a link choice
    await page.getByTestId('merge-finish').click();
    await page
      .getByTestId(`merge-links-${Organisation.itemId}`)
      .getByText('You must select an option')
      .waitFor();
    await page.getByTestId(`merge-link-${Organisation.itemId}-selectedlinks`).check();
    await page.getByTestId(`merge-link-pick-${Organisation.itemId}-${globex}`).check();
    await screenshot(page, 'merge-step-compare');
    await page.getByTestId('merge-finish').click();
    await page.getByTestId('merge-done').waitFor();
    await screenshot(page, 'merge-done');
    await page.getByTestId('merge-open').click();
    await page.waitForURL(/\/contentdossier\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('dossier-title').filter({ hasText: 'Merge right' }).waitFor();
    const merged = await stack.db
      .selectFrom('content_dossier')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const values = merged.values as Record<string, unknown>;
    expect(values[String(Name.dataFieldId)]).toBe('Merge right');
    expect(values[String(Amount.dataFieldId)]).toBe(42);
    const links = await stack.db
      .selectFrom('content_link')
      .select('child_id')
      .where('parent_id', '=', id)
      .where('link_id', '=', fixture.linkId)
      .execute();
    expect(links.map((l) => Number(l.child_id))).toEqual([globex]);
    const old = await stack.db
      .selectFrom('content_dossier')
      .select('id')
      .where('id', 'in', [first, second])
      .execute();
    expect(old).toEqual([]);
  } finally {
    await close();
  }
});

test('multiple create: twelve dossiers, monthly on the last Friday, previewed and saved in one go', async () => {
  const { Name } = fixture.fields;
  const birth = fixture.fields['Birth date'];
  // a series shares its values: the name may not be unique here
  const base = await stack.db
    .selectFrom('def_dossier_def_field')
    .select('def_field_id')
    .where('id', '=', Name.dataFieldId as number)
    .executeTakeFirstOrThrow();
  await stack.db.updateTable('def_field').set({ settings: {} }).where('id', '=', base.def_field_id).execute();
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId(`dossier-item-${Name.itemId}`).locator('input').first().fill('Monthly meeting');
    await page.getByTestId('dossier-repeat').click();
    await page.getByTestId('repeat-form').waitFor();
    await page.getByTestId('repeat-start').fill('2027-01-01');
    await page.getByTestId('repeat-frequency').click();
    await page.getByRole('option', { name: 'Monthly', exact: true }).click();
    await page.getByTestId('repeat-on-ordinal').check();
    await page.getByTestId('repeat-ordinal').click();
    await page.getByRole('option', { name: 'Last', exact: true }).click();
    await page.getByTestId('repeat-ordinal-day').click();
    await page.getByRole('option', { name: 'Friday', exact: true }).click();
    // an end before the start: the spec's message
    await page.getByTestId('repeat-end-date-input').fill('2026-12-01');
    await page
      .getByTestId('repeat-problem')
      .filter({ hasText: 'must not be before the start date' })
      .waitFor();
    await page.getByTestId('repeat-end-count').check();
    await page.getByTestId('repeat-count').fill('12');
    await page.locator('[data-testid="repeat-preview"][data-count="12"]').waitFor();
    expect(await page.getByTestId('repeat-preview-date').first().textContent()).toBe('29-01-2027');
    await screenshot(page, 'repeat-modal');
    await page.getByTestId('repeat-save').click();
    await page.getByTestId('repeat-saved').waitFor();
    await screenshot(page, 'repeat-saved');
    // the modal closes after 2 s and leads to the list
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);
    const rows = await stack.db
      .selectFrom('content_dossier')
      .select('values')
      .where('def_dossier_id', '=', fixture.entity.id)
      .where('summary', 'like', '%Monthly meeting%')
      .execute();
    const dates = rows.map((r) => (r.values as Record<string, string>)[String(birth.dataFieldId)]).sort();
    expect(dates).toHaveLength(12);
    expect(dates[0]).toBe('2027-01-29');
    expect(dates[11]).toBe('2027-12-31');
    for (const d of dates) expect(new Date(`${d}T00:00:00Z`).getUTCDay()).toBe(5);
  } finally {
    await close();
  }
});
