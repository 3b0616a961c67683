import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import {
  DEMO_PASSWORD,
  openBrowser,
  openDemoAs,
  type Stack,
  screenshot,
  signIn,
  startStack,
} from './harness';

// Screens show an action only when the server's abilities allow it (policy/abilities.ts): a member
// is not offered what the server would refuse.

let stack: Stack;
let fixture: EveryTypeEntity;

beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Applicant');
  await insertDossiers(stack.db, fixture, [{ Name: 'Alice' }, { Name: 'Bob' }]);
}, 120_000);
afterAll(() => stack?.close());

/** The Caseworker role's actions on an entity. */
const grant = (entityId: number, actions: string[]) =>
  stack.db
    .updateTable('permission')
    .set({ actions })
    .where('def_dossier_id', '=', entityId)
    .where('role_id', '=', fixture.caseworkerRoleId)
    .execute();

async function openList(page: Page) {
  await page.goto(`/defdossier/${fixture.entity.id}`);
  await page.getByTestId('dossier-row').first().waitFor();
}

test('a member is offered Archive only on an archivable entity', async () => {
  // the archive permission, on an entity whose dossiers cannot be archived
  await grant(fixture.entity.id, ['show', 'create', 'edit', 'delete', 'archive']);
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await openList(page);
    await page.getByTestId('dossier-row-select').first().check();
    await page.getByTestId('dossier-bulk-bar').waitFor();
    await page.getByTestId('dossier-bulk-delete').waitFor();
    expect(await page.getByTestId('dossier-bulk-more').count()).toBe(1);
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-subscribe').waitFor();
    expect(await page.getByTestId('dossier-bulk-archive').count()).toBe(0);
    await screenshot(page, 'abilities-no-archive');

    // once the entity is archivable, Archive is offered
    await stack.db
      .updateTable('def_dossier')
      .set({ archivable: true })
      .where('id', '=', fixture.entity.id)
      .execute();
    await openList(page);
    await page.getByTestId('dossier-row-select').first().check();
    await page.getByTestId('dossier-bulk-more').click();
    await page.getByTestId('dossier-bulk-archive').waitFor();
  } catch (error) {
    await screenshot(page, 'abilities-archive-failure');
    throw error;
  } finally {
    await close();
  }
});

test("the link picker offers 'New' only with create on the linked entity", async () => {
  await grant(fixture.entity.id, ['show', 'create', 'edit']);
  await grant(fixture.linked.id, ['show']);
  const { page, close } = await openBrowser(stack.baseUrl);
  const link = () => page.getByTestId(`dossier-item-${fixture.fields.Organisation.itemId}`);
  try {
    await openDemoAs(
      page,
      stack.baseUrl,
      'demo',
      DEMO_PASSWORD,
      `/contentdossier/create/${fixture.entity.id}`,
    );
    await page.getByTestId('dossier-create-page').waitFor();
    await link().getByTestId('link-filter').waitFor();
    expect(await link().getByTestId('link-new').count()).toBe(0);
    await screenshot(page, 'abilities-no-link-new');

    await grant(fixture.linked.id, ['show', 'create']);
    await page.reload();
    await link().getByTestId('link-new').waitFor();
  } catch (error) {
    await screenshot(page, 'abilities-link-new-failure');
    throw error;
  } finally {
    await close();
  }
});
