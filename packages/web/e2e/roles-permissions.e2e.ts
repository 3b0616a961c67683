import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addMember, buildUser } from '../../server/test/factories';
import nl from '../src/i18n/nl.json';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import { openBrowser, openDemoAs, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Issue 16, roles and permissions: an admin creates a role, grants it permissions on an entity in the
// /permissions matrix (mouse, then keyboard), a member holding the role sees the entity's Add button
// from their next page load; deleting the role, still in use, is refused with where it is used, and
// the admin removes it from those places and deletes it in one go. Then the screens in Dutch.

const MEMBER_PASSWORD = 'rita member password 1';

let stack: Stack;
let fixture: EveryTypeEntity;
let member: Awaited<ReturnType<typeof buildUser>>;

beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Applicant');
  await insertDossiers(stack.db, fixture, [{ Name: 'Alice' }]);
  member = await buildUser(stack.db, { username: 'rita', password: MEMBER_PASSWORD });
}, 120_000);
afterAll(() => stack?.close());

const roleByName = (name: string) =>
  stack.db.selectFrom('role').selectAll().where('name', '=', name).executeTakeFirst();

/** Through the Admin settings group of the menu (open already on an admin screen). */
async function openAdminLink(page: Page, key: string, path: string) {
  const link = page.getByTestId(`menu-admin-${key}`);
  if (!(await link.isVisible())) await page.getByTestId('menu-admin').click();
  await link.click();
  await page.waitForURL(`**${path}`);
}

test('an admin creates a role, grants it create in the matrix, and the member gets the Add button', async () => {
  const admin = await openBrowser(stack.baseUrl);
  const rita = await openBrowser(stack.baseUrl);
  const { page } = admin;
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await openAdminLink(page, 'roles', '/roles');
    await page.getByTestId('roles-table').waitFor();
    await screenshot(page, 'roles-list');

    // a new role, named in both languages of the environment
    await page.getByTestId('roles-new').click();
    await page.waitForURL('**/role/0');
    await page.getByTestId('role-save').click();
    // nothing given: the first language's box says what is missing
    await page.getByText('This is a required field').waitFor();
    await page.getByTestId('role-name-en_GB').fill('Intake');
    await page.getByTestId('role-name-nl_NL').fill('Intaker');
    await screenshot(page, 'role-new');
    await page.getByTestId('role-save').click();
    await page.waitForURL('**/roles');
    await page.getByTestId('roles-open').filter({ hasText: 'Intake' }).waitFor();
    const intake = await roleByName('Intake');
    expect(intake?.translations).toEqual([
      { culture: 'en_GB', name: 'Intake' },
      { culture: 'nl_NL', name: 'Intaker' },
    ]);
    const roleId = intake?.id as number;

    // the same name again is refused on the field
    await page.getByTestId('roles-new').click();
    await page.getByTestId('role-name-en_GB').fill('intake');
    await page.getByTestId('role-save').click();
    await page.getByText('A role with this name exists').waitFor();

    // Rita, an ordinary member, holds the new role
    await addMember(stack.db, fixture.environmentId, { user: member, roleIds: [roleId] });

    // the matrix: Show with the mouse
    await openAdminLink(page, 'permissions', '/permissions');
    const entityId = fixture.entity.id;
    const cell = page.getByTestId(`permission-cell-${entityId}-${roleId}`);
    await cell.click();
    await page.getByTestId(`permission-${entityId}-${roleId}-show`).check();
    await page.getByTestId(`permission-state-${entityId}-${roleId}`).getByText('Saved').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent === '1/14',
      `permission-cell-${entityId}-${roleId}`,
    );

    // Rita may see the list, not add to it
    await openDemoAs(rita.page, stack.baseUrl, 'rita', MEMBER_PASSWORD, `/defdossier/${entityId}`);
    await rita.page.getByTestId('dossier-row').first().waitFor();
    expect(await rita.page.getByTestId('dossier-add').count()).toBe(0);

    // Create with the keyboard: the cell opens on Enter, focus moves into its checklist
    await cell.focus();
    await page.keyboard.press('Enter');
    const create = page.getByTestId(`permission-${entityId}-${roleId}-create`);
    await page.waitForFunction(() => document.activeElement?.getAttribute('type') === 'checkbox');
    await page.keyboard.press('Tab');
    expect(await create.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await page.getByTestId(`permission-state-${entityId}-${roleId}`).getByText('Saved').waitFor();
    expect(await create.isChecked()).toBe(true);
    await screenshot(page, 'permissions-cell-open');
    await page.keyboard.press('Escape');
    // focus is back on the cell, which names the role, the entity and what is granted
    expect(await cell.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await cell.getAttribute('aria-label')).toBe('Intake, Applicant: 2/14 permissions');
    await screenshot(page, 'permissions-matrix');
    const stored = await stack.db
      .selectFrom('permission')
      .select('actions')
      .where('def_dossier_id', '=', entityId)
      .where('role_id', '=', roleId)
      .executeTakeFirstOrThrow();
    expect(stored.actions).toEqual(['show', 'create']);

    // the entity editor's Permissions tab shows the same permissions
    await page.goto(`/defdossier/edit/${entityId}`);
    await page.getByTestId('entity-tab-permissions').click();
    expect(await page.getByTestId(`permission-${roleId}-create`).isChecked()).toBe(true);
    expect(await page.getByTestId(`permission-${roleId}-edit`).isChecked()).toBe(false);

    // Rita's next page load offers Add
    await rita.page.reload();
    await rita.page.getByTestId('dossier-add').waitFor();
    await screenshot(rita.page, 'permissions-member-can-add');

    // deleting the role: refused with where it is used, then removed from there and deleted
    await page.goto(`/role/${roleId}`);
    await page.getByTestId('role-delete').click();
    await page.getByTestId('role-in-use').waitFor();
    expect(await page.getByTestId('role-usage-members').textContent()).toContain('rita');
    expect(await page.getByTestId('role-usage-permissions').textContent()).toContain('Applicant');
    await screenshot(page, 'role-delete-in-use');
    await page.getByTestId('role-delete-confirm').click();
    await page.waitForURL('**/roles');
    await page.getByTestId('notification-success').waitFor();
    expect(await page.getByTestId('roles-open').filter({ hasText: 'Intake' }).count()).toBe(0);
    expect(await roleByName('Intake')).toBeUndefined();
    const membership = await stack.db
      .selectFrom('environment_user')
      .select('role_ids')
      .where('environment_id', '=', fixture.environmentId)
      .where('user_id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(membership.role_ids).toEqual([]);

    // Rita's next page load: without the role, not even the list
    await rita.page.reload();
    await rita.page.getByTestId('dossier-list-forbidden').waitFor();
    expect(await rita.page.getByTestId('dossier-add').count()).toBe(0);
  } catch (error) {
    await screenshot(page, 'roles-permissions-failure').catch(() => undefined);
    throw error;
  } finally {
    await Promise.all([admin.close(), rita.close()]);
  }
}, 300_000);

test('the role and permission screens in Dutch', async () => {
  const role = await stack.db
    .insertInto('role')
    .values({
      environment_id: fixture.environmentId,
      name: 'Reviewer',
      translations: JSON.stringify([
        { culture: 'en_GB', name: 'Reviewer' },
        { culture: 'nl_NL', name: 'Beoordelaar' },
      ]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { page, close } = await openBrowser(stack.baseUrl, { locale: 'nl-NL' });
  try {
    await openDemoAsAdmin(page, stack.baseUrl, '/roles');
    await page.getByTestId('roles-open').filter({ hasText: 'Beoordelaar' }).waitFor();
    await page.getByText(nl.admin.roles.translations).waitFor();
    await screenshot(page, 'roles-list-nl');

    await page.goto(`/role/${role.id}`);
    await page.getByText(nl.admin.roles.names_hint).waitFor();
    await screenshot(page, 'role-edit-nl');
    await page.getByTestId('role-delete').click();
    // Caseworker's members and permissions are not this role's: it is free to go
    await page.getByTestId('role-delete-question').waitFor();
    await screenshot(page, 'role-delete-nl');
    await page.getByTestId('role-delete-modal-cancel').click();

    await page.goto('/permissions');
    await page.getByText(nl.admin.permissions.intro).waitFor();
    const cell = page.getByTestId(`permission-cell-${fixture.entity.id}-${role.id}`);
    await cell.click();
    await page.getByText(nl.admin.permission_actions.secureshare).waitFor();
    await screenshot(page, 'permissions-nl');
    expect(await cell.getAttribute('aria-label')).toBe('Beoordelaar, Applicant: 0/14 rechten');
  } catch (error) {
    await screenshot(page, 'roles-permissions-nl-failure').catch(() => undefined);
    throw error;
  } finally {
    await close();
  }
}, 240_000);
