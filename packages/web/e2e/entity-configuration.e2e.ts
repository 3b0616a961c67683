import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addMember, buildDefDossier, buildEnvironment, buildUser } from '../../server/test/factories';
import {
  DEMO_PASSWORD,
  openBrowser,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  signIn,
  startStack,
} from './harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** Picks an option of a Mantine Select or MultiSelect by its label. */
async function choose(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click({ force: true });
  await page.getByRole('option', { name: label, exact: true }).click();
}

async function createEntity(page: Page, name: string): Promise<number> {
  await page.getByTestId('menu-add-entity').click();
  await page.waitForURL('**/defdossier/edit/0');
  await page.getByTestId('entity-name-en_GB').fill(name);
  await page.getByTestId('entity-singular-en_GB').fill(name);
  await page.getByTestId('entity-plural-en_GB').fill(`${name}s`);
  await page.getByTestId('entity-form-save').click();
  await page.waitForURL(/\/fieldeditor\/\d+$/);
  await page.getByTestId('field-designer').waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

/** A data field with a new base field of the type labelled `typeLabel`, placed in the active tab by the auto-create dialog. */
async function addDataField(page: Page, name: string, typeLabel: string) {
  await page.getByTestId('designer-add-data-field').click();
  await page.getByTestId('data-field-name').fill(name);
  await page.getByTestId('data-field-create-base').check({ force: true });
  await choose(page, 'data-field-new-type', typeLabel);
  await page.getByTestId('field-modal-save').click();
  await page.getByTestId('auto-display-yes').click();
  await page.getByTestId('auto-display-yes').waitFor({ state: 'hidden' });
  await page.locator('[data-testid^="designer-item-"]', { hasText: name }).first().waitFor();
}

test('the admin configures a Client and a Case entity with fields, tabs, a link and a condition', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);

    // Client with text, date and list fields in the main tab
    const clientId = await createEntity(page, 'Client');
    await addDataField(page, 'Name', 'Text');
    await addDataField(page, 'Birth date', 'Date');
    await addDataField(page, 'Status', 'List');

    // Three coloured options on the list field, through the base field editor
    const status = page.locator('[data-testid^="designer-item-"]', { hasText: 'Status' }).first();
    await status.locator('[data-testid^="designer-cog-"]').click();
    await page.getByTestId('cog-base').click();
    await page.getByTestId('base-field-modal').getByRole('tab', { name: 'Options' }).click();
    for (const [text, colour] of [
      ['Active', '#2f9e44'],
      ['Pending', '#f08c00'],
      ['Closed', '#e03131'],
    ]) {
      await page.getByTestId('list-option-add').click();
      await page.getByTestId('list-option-text-en_GB').fill(text);
      await page.getByTestId('list-option-modal').getByRole('tab', { name: 'Layout' }).click();
      await page.getByTestId('list-option-color').fill(colour);
      await page.getByTestId('list-option-save').click();
      await page.getByTestId('list-options').getByText(text, { exact: true }).waitFor();
    }
    await page.getByTestId('base-field-save').click();
    await page.getByTestId('base-field-save').waitFor({ state: 'hidden' });

    // A second tab holding the amount and user fields
    await page.getByTestId('designer-add-position').click();
    await page.getByTestId('position-name').fill('Details');
    await page.getByTestId('position-save').click();
    const detailsTab = page.getByRole('tab', { name: /Details/ });
    await detailsTab.click();
    await addDataField(page, 'Income', 'Amount');
    await addDataField(page, 'Owner', 'User');
    const detailsPanel = page.getByRole('tabpanel');
    await expect(detailsPanel.textContent()).resolves.toContain('Income');

    // Back on the main tab the first three fields are placed; screenshot of the designer
    await page.getByRole('tab', { name: /General/ }).click();
    const item = (label: string) =>
      page.locator('[data-testid^="designer-item-"]', { hasText: label }).first();
    await item('Birth date').waitFor();
    // Items name their type and view in words, not by their identifiers
    await expect(item('Birth date').textContent()).resolves.toContain('Date · Show and edit');

    // The date's settings: labelled controls, weekdays and reminders instead of JSON text boxes
    await item('Birth date').locator('[data-testid^="designer-cog-"]').click();
    await page.getByTestId('cog-base').click();
    const baseModal = page.getByTestId('base-field-modal');
    await baseModal.getByRole('tab', { name: 'Misc' }).click();
    await baseModal.getByText('Days that cannot be chosen').waitFor();
    expect(await baseModal.getByText('restrict_days').count()).toBe(0);
    expect(await page.getByTestId('settings-fields').locator('textarea').count()).toBe(0);
    await page.getByTestId('setting-restrict_days').click({ force: true });
    await page.getByRole('option', { name: 'Sunday', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('setting-deadline-add').click();
    await page.getByTestId('setting-deadline-0-number').fill('3');
    await choose(page, 'setting-deadline-0-unit', 'weeks');
    await screenshot(page, 'entity-configuration-date-settings');
    await page.getByTestId('base-field-save').click();
    await page.getByTestId('base-field-save').waitFor({ state: 'hidden' });
    const birthDate = await stack.db
      .selectFrom('def_field')
      .innerJoin('def_dossier_def_field', 'def_dossier_def_field.def_field_id', 'def_field.id')
      .select('def_field.settings')
      .where('def_dossier_def_field.def_dossier_id', '=', clientId)
      .where('def_dossier_def_field.name', '=', 'Birth_date')
      .executeTakeFirstOrThrow();
    expect(birthDate.settings).toMatchObject({
      restrict_days: [6],
      deadline: [{ number: 3, type: 'week', when: 'before' }],
    });

    // Drag Birth date next to Name: one row of two items, saved as rank and col
    const handle = await item('Birth date').locator('[data-testid^="designer-drag-"]').boundingBox();
    const target = await item('Name').boundingBox();
    if (!handle || !target) throw new Error('designer items not laid out');
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++) {
      await page.mouse.move(
        handle.x + ((target.x + target.width / 2 - handle.x) * step) / 10,
        handle.y + ((target.y + target.height / 2 - handle.y) * step) / 10,
      );
    }
    await page.mouse.up();
    await expect
      .poll(
        async () =>
          page.getByTestId('designer-row').first().locator('[data-testid^="designer-item-"]').count(),
        {
          timeout: 10_000,
        },
      )
      .toBe(2);
    const placed = await page.evaluate(async (id) => {
      const response = await fetch(`/api/displayitem?defDossier=${id}&limit=500`, { credentials: 'include' });
      const body = await response.json();
      return body.results.map(
        (i: { def_dossier_def_field: { name: string } | null; rank: number; col: number }) => [
          i.def_dossier_def_field?.name,
          i.rank,
          i.col,
        ],
      );
    }, clientId);
    expect(placed).toEqual(
      expect.arrayContaining([
        ['Birth_date', 1, 1],
        ['Name', 1, 5],
        ['Status', 2, 1],
      ]),
    );

    // The display field editor: a negative column marks the Layout tab, a wider span is saved
    await item('Name').locator('[data-testid^="designer-cog-"]').click();
    await page.getByTestId('cog-display').click();
    await page.getByTestId('display-tab-layout').click();
    await page.getByTestId('display-col').fill('-1');
    await page.getByTestId('layout-error').waitFor();
    await page.getByTestId('display-col').fill('5');
    await page.getByTestId('display-colspan').fill('8');
    await expect(page.getByTestId('layout-error').count()).resolves.toBe(0);
    await page.getByTestId('display-save').click();
    await page.getByTestId('display-save').waitFor({ state: 'hidden' });
    await expect.poll(() => item('Name').textContent()).toContain('8/12');
    await screenshot(page, 'entity-configuration-designer');

    // Condition: Income shows only when Status is Active
    await page.goto(`/defdossier/conditions/${clientId}`);
    await page.getByTestId('condition-add').click();
    await choose(page, 'condition-0-rule-0-field-0', 'Status (List)');
    await choose(page, 'condition-0-rule-0-values-0', 'Active');
    await page.keyboard.press('Escape');
    await page.getByTestId('condition-0-action-0-items').click({ force: true });
    await page.getByRole('option', { name: /^Income/ }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('conditions-save').click();
    await page.getByTestId('notification-success').first().waitFor();
    const saved = await page.evaluate(async (id) => {
      const response = await fetch(`/api/defdossier/${id}`, { credentials: 'include' });
      return (await response.json()).settings.conditions;
    }, clientId);
    expect(saved).toHaveLength(1);
    expect(saved[0].actions[0]).toMatchObject({ type: 'show_fields' });
    expect(saved[0].actions[0].values).toHaveLength(1);
    expect(saved[0].rules[0].fields[0].values).toHaveLength(1);

    // View settings on Client: a month calendar and the Status field as kanban columns
    await page.goto(`/defdossier/edit/${clientId}`);
    await page.getByTestId('entity-tab-views').click();
    await choose(page, 'entity-setting-calendar_default', 'Month');
    await choose(page, 'entity-setting-kanban_list_field', 'Status (List)');
    await page.getByTestId('entity-form-save').click();
    const cookie = (await page.context().cookies()).map((entry) => `${entry.name}=${entry.value}`).join('; ');
    const statusField = await stack.db
      .selectFrom('def_dossier_def_field')
      .select('id')
      .where('def_dossier_id', '=', clientId)
      .where('name', '=', 'Status')
      .executeTakeFirstOrThrow();
    await expect
      .poll(
        async () => {
          const answer = await stack.app.inject({
            method: 'GET',
            url: `/api/defdossier/${clientId}`,
            headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
          });
          const { settings } = answer.json();
          return [settings.calendar_default, settings.kanban_list_field, settings.conditions?.length];
        },
        { timeout: 10_000 },
      )
      .toEqual(['month', statusField.id, 1]);

    // Renaming the Details tab in the field designer shows the new name
    await page.goto(`/fieldeditor/${clientId}`);
    await page.getByRole('tab', { name: /Details/ }).click();
    await page.getByTestId('designer-position-edit').click();
    await page.getByTestId('position-name-en_GB').fill('Finance');
    await page.getByTestId('position-save').click();
    await page.getByTestId('position-save').waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: /Finance/ }).waitFor();
    await expect(page.getByRole('tab', { name: /Details/ }).count()).resolves.toBe(0);
    // The server refuses to delete a tab that still holds items, and the dialog shows why
    await page.getByTestId('designer-position-edit').click();
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByTestId('position-delete').click();
    await expect
      .poll(() => page.getByTestId('position-modal').getByTestId('form-error').textContent())
      .toContain('display item');
    await page.keyboard.press('Escape');
    await page.getByTestId('position-save').waitFor({ state: 'hidden' });

    // Case with a link to Client
    const caseId = await createEntity(page, 'Case');
    await page.getByTestId('designer-add-link-field').click();
    await page.getByTestId('link-name').fill('client');
    await choose(page, 'link-entity', 'Client');
    await page.getByTestId('link-save').click();
    await page.getByTestId('link-save').waitFor({ state: 'hidden' });

    // "Duplicate" copies Client's Name base field onto a text field of Case, the one the admin picks
    await addDataField(page, 'Title', 'Text');
    const fieldOf = (entity: number, name: string) =>
      stack.db
        .selectFrom('def_dossier_def_field')
        .select(['id', 'def_field_id'])
        .where('def_dossier_id', '=', entity)
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
    const [clientName, caseTitle] = await Promise.all([fieldOf(clientId, 'Name'), fieldOf(caseId, 'Title')]);
    expect(caseTitle.def_field_id).not.toBe(clientName.def_field_id);
    await page.goto(`/fieldeditor/${clientId}`);
    await item('Name').locator('[data-testid^="designer-cog-"]').click();
    await page.getByTestId('cog-base').click();
    await page.getByTestId('base-field-duplicate').click();
    const duplicate = page.getByTestId('duplicate-modal');
    // the fields that already use it are not offered: copying onto them would change nothing
    await duplicate.getByTestId(`duplicate-target-${caseTitle.id}`).waitFor();
    expect(await duplicate.getByTestId(`duplicate-target-${clientName.id}`).count()).toBe(0);
    await duplicate.getByTestId(`duplicate-target-${caseTitle.id}`).check();
    await page.getByTestId('duplicate-save').click();
    await expect(duplicate.getByTestId('duplicate-success').textContent()).resolves.toContain(': 1');
    await screenshot(page, 'entity-configuration-duplicate');
    await duplicate.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await fieldOf(caseId, 'Title')).def_field_id)
      .toBe(clientName.def_field_id);
    await page.keyboard.press('Escape');

    // The backlink appears on Client
    await page.goto(`/datastructure/${clientId}`);
    const links = page.getByTestId('structure-links');
    await links.getByText('Case', { exact: false }).first().waitFor();
    await page.goto(`/datastructure/${caseId}`);
    await page.getByTestId('structure-links').getByText('client', { exact: true }).waitFor();

    // The designer's ERD editor (?editData=1) shows the entity's data fields and links
    await page.goto(`/fieldeditor/${clientId}`);
    await page.getByTestId('designer-data-editor').click();
    await page.waitForURL(/editData=1/);
    await page.getByTestId('structure-fields').getByText('Birth', { exact: false }).first().waitFor();
    await page.getByTestId('structure-links').getByText('Case', { exact: false }).first().waitFor();

    // Both entities in the menu
    const menu = page.getByTestId('main-menu');
    await expect(
      menu.locator(`[data-testid="menu-entity"][data-entity-id="${clientId}"]`).textContent(),
    ).resolves.toBe('Client');
    await expect(
      menu.locator(`[data-testid="menu-entity"][data-entity-id="${caseId}"]`).textContent(),
    ).resolves.toBe('Case');

    // The datastructure list shows both, and moving Case up saves the entity ranks
    await page.goto('/datastructure');
    await page.getByTestId(`datastructure-row-${clientId}`).waitFor();
    const rows = page.locator('[data-testid^="datastructure-row-"]');
    const before = await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-testid')));
    await page.getByTestId(`datastructure-up-${caseId}`).click();
    await expect
      .poll(() => rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-testid'))))
      .not.toEqual(before);
    const after = await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-testid')));
    expect(after.indexOf(`datastructure-row-${caseId}`)).toBe(
      before.indexOf(`datastructure-row-${caseId}`) - 1,
    );

    // ERD draws both entities
    await page.goto('/erd');
    await page.getByTestId(`erd-node-${clientId}`).waitFor();
    await page.getByTestId(`erd-node-${caseId}`).waitFor();
    await screenshot(page, 'entity-configuration-erd');
  } catch (error) {
    await screenshot(page, 'entity-configuration-failure');
    throw error;
  } finally {
    await close();
  }
}, 240_000);

test('an ordinary user gets the 403 message on the configuration screens', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    for (const path of ['/fieldeditor/1', '/datastructure', '/defdossier/edit/0', '/erd']) {
      await page.goto(path);
      await page.getByTestId('admin-forbidden').waitFor();
    }
  } finally {
    await close();
  }
});

test("an environment admin who opens another environment's entity gets the not-found page", async () => {
  const password = 'tenant admin password 1';
  const user = await buildUser(stack.db, { password });
  const demo = await stack.db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  await addMember(stack.db, demo.id, { user, credentials: ['environment-admin'] });
  const elsewhere = await buildEnvironment(stack.db, { name: 'Elsewhere' });
  const theirs = await buildDefDossier(stack.db, elsewhere.id, { name: 'Their entity' });
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    // a member of one environment lands in it directly (no card to click)
    await signIn(page, user.username, password, `${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();
    // the server answers 404 for it, as for an entity that does not exist
    for (const path of [
      `/defdossier/edit/${theirs.id}`,
      `/fieldeditor/${theirs.id}`,
      `/defdossier/conditions/${theirs.id}`,
      `/datastructure/${theirs.id}`,
      '/defdossier/edit/2000000000',
    ]) {
      await page.goto(path);
      await page.getByTestId('not-found-page').waitFor();
      expect(await page.content(), path).not.toContain('Their entity');
    }
    await screenshot(page, 'entity-configuration-foreign-entity');
  } catch (error) {
    await screenshot(page, 'entity-configuration-foreign-entity-failure');
    throw error;
  } finally {
    await close();
  }
});
