import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import {
  DEMO_PASSWORD,
  openBrowser,
  openDemoAs,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  startStack,
} from './harness';

// Role visibility of a field is set once, in the field designer, and holds in every view: a member
// of the role it is hidden from sees it neither in the list nor on the dossier page.

let stack: Stack;
let fixture: EveryTypeEntity;
let dossierId: number;
let listEmailItem: number;

beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Tenant');
  [dossierId] = await insertDossiers(stack.db, fixture, [
    { Name: 'Alice', Email: 'alice@example.com' },
    { Name: 'Bob', Email: 'bob@example.com' },
  ]);
  const item = await stack.db
    .selectFrom('display_item')
    .select('id')
    .where('def_dossier_def_field_id', '=', fixture.fields.Email.dataFieldId)
    .where('view', '=', 'list')
    .executeTakeFirstOrThrow();
  listEmailItem = item.id;
}, 120_000);
afterAll(() => stack?.close());

test('the admin hides a field from a role in the field designer; its members see it nowhere', async () => {
  const admin = await openBrowser(stack.baseUrl);
  const { page } = admin;
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/fieldeditor/${fixture.entity.id}`);
    await page.getByTestId(`designer-cog-${fixture.fields.Email.itemId}`).click();
    await page.getByTestId('cog-display').click();
    const modal = page.getByTestId('display-modal');
    await modal.getByRole('tab', { name: 'Permissions' }).click();
    const visibility = modal.getByTestId('field-visibility');
    await visibility.getByLabel('Hide for selected roles').check();
    await visibility.getByTestId(`field-visibility-role-${fixture.caseworkerRoleId}`).check();
    // the item's own setting (this view only) keeps its value beside the field's
    expect(await modal.getByRole('radio', { name: 'Hide for selected roles', checked: true }).count()).toBe(
      2,
    );
    await screenshot(page, 'field-visibility-designer');
    await visibility.getByTestId('field-visibility-save').click();
    await page.getByText('Visibility of Email saved').waitFor();
    const stored = await stack.db
      .selectFrom('def_dossier_def_field')
      .select(['roles', 'permissions_type'])
      .where('id', '=', fixture.fields.Email.dataFieldId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ roles: [fixture.caseworkerRoleId], permissions_type: 'EXCLUDE_SELECTED_ROLES' });
  } catch (error) {
    await screenshot(page, 'field-visibility-designer-failure');
    throw error;
  } finally {
    await admin.close();
  }

  const member = await openBrowser(stack.baseUrl);
  try {
    const page = member.page;
    await openDemoAs(page, stack.baseUrl, 'demo', DEMO_PASSWORD, `/defdossier/${fixture.entity.id}`);
    await page.getByTestId('dossier-row').first().waitFor();
    const columns = await page.getByTestId('dossier-column').allTextContents();
    expect(columns).toContain('Name');
    expect(columns).not.toContain('Email');
    expect(await page.locator(`[data-item-id="${listEmailItem}"]`).count()).toBe(0);
    expect(await page.getByTestId('dossier-list-page').textContent()).not.toContain('@example.com');
    await screenshot(page, 'field-visibility-member-list');

    await page.goto(`/contentdossier/${dossierId}`);
    await page.getByTestId(`dossier-value-${fixture.fields.Name.itemId}`).waitFor();
    expect(await page.getByTestId(`dossier-item-${fixture.fields.Email.itemId}`).count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain('alice@example.com');
    await screenshot(page, 'field-visibility-member-dossier');
  } catch (error) {
    await screenshot(member.page, 'field-visibility-member-failure');
    throw error;
  } finally {
    await member.close();
  }
});
