import type { DossierDetail } from '@dossierbase/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
} from '../../server/test/entity-factories';
import { addMember, buildDefDossier, buildEnvironment } from '../../server/test/factories';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossier } from './dossier-fixture';
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
let fixture: EveryTypeEntity;
beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Person');
  // The fixture gives Secret an admin-only role but keeps the default EXCLUDE_SELECTED_ROLES, which
  // shows it to every other role; INCLUDE_SELECTED_ROLES makes it what the fixture describes.
  await stack.db
    .updateTable('display_item')
    .set({ permissions_type: 'INCLUDE_SELECTED_ROLES' })
    .where('id', '=', fixture.fields.Secret.itemId)
    .execute();
});
afterAll(() => stack?.close());

const item = (page: Page, field: string) => page.getByTestId(`dossier-item-${fixture.fields[field].itemId}`);
const shown = (page: Page, field: string) =>
  page.getByTestId(`dossier-value-${fixture.fields[field].itemId}`);

async function fillText(page: Page, field: string, text: string) {
  const input = item(page, field).locator('input:not([type="file"]):not([type="hidden"]), textarea').first();
  await input.fill(text);
  await input.blur();
}

async function pick(page: Page, field: string, option: string) {
  await item(page, field).locator('input').first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function createdId(page: Page): Promise<number> {
  await page.waitForURL(/\/contentdossier\/\d+$/);
  await page.getByTestId('dossier-detail-page').waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

test('an admin creates, reads and edits a dossier with every field type; duplicates, archive and role visibility', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.goto(`/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId('dossier-create-page').waitFor();
    expect(await page.getByTestId('dossier-create-title').textContent()).toBe('New Person');
    expect(await page.title()).toBe('New Person');
    // Name is obligatory: the asterisk shows, and Add without it puts the message under it
    await expect.poll(() => item(page, 'Name').locator('.mantine-InputWrapper-required').count()).toBe(1);
    await page.getByTestId('dossier-add').click();
    await item(page, 'Name').getByText('This is a required field').waitFor();
    expect(
      await page.evaluate(() =>
        document.activeElement?.closest('[data-item-id]')?.getAttribute('data-item-id'),
      ),
    ).toBe(String(fixture.fields.Name.itemId));

    await fillText(page, 'Name', 'Ann Example');
    const notes = item(page, 'Notes').locator('[contenteditable="true"], textarea').first();
    await notes.click();
    await page.keyboard.type('Met at the office');
    await fillText(page, 'Amount', '12,50');
    await fillText(page, 'Website', 'https://example.org');
    await fillText(page, 'Email', 'ann@example.org');
    await fillText(page, 'Birth date', '01-02-1990');
    await fillText(page, 'Start time', '09:30');
    // the geolocation editor: latitude and longitude inputs, or one "lat, lng" input
    const coordinates = item(page, 'Location').locator('input:not([type="hidden"])');
    if ((await coordinates.count()) >= 2) {
      await coordinates.nth(0).fill('52.370216');
      await coordinates.nth(1).fill('4.895168');
      await coordinates.nth(1).blur();
    } else await fillText(page, 'Location', '52.370216, 4.895168');
    await pick(page, 'Status', 'Open');
    await pick(page, 'Category', 'Parent');
    await item(page, 'Organisation').locator('input').first().click();
    await page.getByRole('option', { name: 'Acme', exact: true }).click();
    const upload = item(page, 'Attachment').locator('input[type="file"]');
    if ((await upload.count()) > 0)
      await upload.setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await fillText(page, 'Secret', 'top secret');
    await fillText(page, 'Remarks', 'first remark');
    await screenshot(page, 'dossier-create');

    // Add lands on the new dossier's detail page, which shows the values
    await page.getByTestId('dossier-add').click();
    const firstId = await createdId(page);
    await page.getByTestId('dossier-title').getByText('Ann Example').waitFor();
    await shown(page, 'Name').getByText('Ann Example').waitFor();
    expect(await shown(page, 'Notes').textContent()).toContain('Met at the office');
    expect(await shown(page, 'Amount').textContent()).toContain('12,50');
    expect(await shown(page, 'Website').textContent()).toContain('example.org');
    expect(await shown(page, 'Email').textContent()).toContain('ann@example.org');
    expect(await shown(page, 'Birth date').textContent()).toContain('01-02-1990');
    expect(await shown(page, 'Start time').textContent()).toContain('09:30');
    expect(await shown(page, 'Location').textContent()).toContain('52.370216');
    expect(await shown(page, 'Status').textContent()).toContain('Open');
    expect(await shown(page, 'Category').textContent()).toContain('Parent');
    expect(await shown(page, 'Organisation').textContent()).toContain('Acme');
    expect(await shown(page, 'Secret').textContent()).toContain('top secret');
    expect(await page.getByTestId('dossier-breadcrumb').textContent()).toContain('Person');
    expect(await page.title()).toBe('Ann Example P-1 - Person');
    await screenshot(page, 'dossier-detail');

    // The second tab through ?selectedTab=: Edit, change, Save and close, see it
    await page.goto(`/contentdossier/${firstId}?selectedTab=${fixture.tabPositionId}`);
    await shown(page, 'Remarks').getByText('first remark').waitFor();
    await page.getByTestId('dossier-edit').click();
    await fillText(page, 'Remarks', 'second remark');
    await screenshot(page, 'dossier-edit');
    await page.getByTestId('dossier-save-close').click();
    await shown(page, 'Remarks').getByText('second remark').waitFor();
    expect(new URL(page.url()).searchParams.get('selectedTab')).toBe(String(fixture.tabPositionId));
    // switching tabs keeps the choice in the address
    await page.getByTestId(`dossier-tab-${fixture.mainPositionId}`).click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get('selectedTab'))
      .toBe(String(fixture.mainPositionId));

    // A second dossier with the same unique Name meets the duplicate warning
    await page.goto(`/contentdossier/create/${fixture.entity.id}`);
    await fillText(page, 'Name', 'Ann Example');
    await page.getByTestId('dossier-add').click();
    const modal = page.getByTestId('existing-matches-modal');
    await modal.getByTestId(`existing-match-${firstId}`).waitFor();
    await screenshot(page, 'dossier-duplicate-modal');
    await page.getByTestId('existing-ignore').click();
    const secondId = await createdId(page);
    expect(secondId).not.toBe(firstId);
    await shown(page, 'Name').getByText('Ann Example').waitFor();

    // The list's quick edit changes the main position in a modal; quick show shows the change
    await page.goto(`/defdossier/${fixture.entity.id}`);
    const row = page.getByTestId('dossier-row').filter({ hasText: '12,50' });
    await row.getByTestId('dossier-quick-edit').click();
    const quickEdit = page.getByTestId('quick-edit-modal');
    await item(quickEdit.page(), 'Email').waitFor();
    await fillText(page, 'Email', 'ann@example.com');
    await screenshot(page, 'dossier-quick-edit');
    await page.getByTestId('quick-edit-save').click();
    // the unchanged Name is no new duplicate warning: saved straight away
    await page.getByTestId('quick-edit-save').waitFor({ state: 'detached' });
    await row.getByTestId('dossier-quick-show').click();
    await page.getByTestId('quick-show-modal').getByText('ann@example.com').waitFor();
    await page.getByTestId('quick-show-close').click();

    // An archived dossier shows the banner and no Edit
    await stack.db
      .updateTable('content_dossier')
      .set({ archived: true })
      .where('id', '=', secondId)
      .execute();
    await page.goto(`/contentdossier/${secondId}`);
    await page.getByTestId('dossier-archived-banner').waitFor();
    await shown(page, 'Name').waitFor();
    expect(await page.getByTestId('dossier-edit').count()).toBe(0);
  } finally {
    await close();
  }
});

test('a caseworker sees neither the hidden field on the screen nor in the API answer', async () => {
  const [first] = await stack.db
    .selectFrom('content_dossier')
    .select('id')
    .where('def_dossier_id', '=', fixture.entity.id)
    .orderBy('id')
    .execute();
  expect(first).toBeDefined();
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();
    const id = Number(first.id);
    const answer = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === `/api/contentdossier/${id}` &&
        response.request().method() === 'GET',
    );
    await page.goto(`/contentdossier/${id}`);
    const body = (await (await answer).json()) as DossierDetail;
    const secret = String(fixture.fields.Secret.itemId);
    expect(body.items.map((i) => String(i.id))).not.toContain(secret);
    expect(Object.keys(body.content)).not.toContain(secret);
    expect(JSON.stringify(body)).not.toContain('top secret');
    await shown(page, 'Name').getByText('Ann Example').waitFor();
    expect(await page.getByTestId(`dossier-item-${secret}`).count()).toBe(0);
    expect(await page.getByText('top secret').count()).toBe(0);
    // Caseworkers may edit: the Edit button shows
    await page.getByTestId('dossier-edit').waitFor();
    await screenshot(page, 'dossier-detail-caseworker');

    // The create form works for them too: their options, without the hidden field
    await page.goto(`/contentdossier/create/${fixture.entity.id}`);
    await fillText(page, 'Name', 'Casey Worker');
    await pick(page, 'Status', 'Closed');
    expect(await page.getByTestId(`dossier-item-${secret}`).count()).toBe(0);
    await screenshot(page, 'dossier-create-caseworker');
    await page.getByTestId('dossier-add').click();
    const created = await createdId(page);
    const row = await stack.db
      .selectFrom('content_dossier')
      .select(['summary', 'created_by'])
      .where('id', '=', created)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      summary: expect.stringContaining('Casey Worker'),
      created_by: fixture.demoUserId,
    });
    expect(await shown(page, 'Status').textContent()).toContain('Closed');
  } finally {
    await close();
  }
});

test('create page: leave dialog, add and continue, vertical detail layout, unknown dossier', async () => {
  const settings = { ...fixture.entity.settings, add_continue: true, detail_layout: 'vertical' };
  await stack.db
    .updateTable('def_dossier')
    .set({ settings: JSON.stringify(settings) as never })
    .where('id', '=', fixture.entity.id)
    .execute();
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.goto(`/contentdossier/create/${fixture.entity.id}`);
    await fillText(page, 'Name', 'Bob Leaving');

    // Leaving with unsaved changes asks first
    await page.getByTestId('dossier-back-overview').click();
    const leave = page.getByTestId('dossier-leave-modal');
    await leave.getByText('Discard changes to Person').waitFor();
    await page.getByTestId('dossier-continue-working').click();
    await leave.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/contentdossier/create/${fixture.entity.id}`);

    // Add and continue saves, empties the form and stays
    await page.getByTestId('dossier-add-continue').click();
    await page.getByTestId('dossier-continue-success').waitFor();
    await expect.poll(() => item(page, 'Name').locator('input').inputValue()).toBe('');
    expect(new URL(page.url()).pathname).toBe(`/contentdossier/create/${fixture.entity.id}`);
    const saved = await stack.db
      .selectFrom('content_dossier')
      .select('id')
      .where('def_dossier_id', '=', fixture.entity.id)
      .where('summary', 'like', 'Bob Leaving%')
      .executeTakeFirst();
    expect(saved).toBeDefined();

    // Nothing typed now: leaving does not ask
    await page.getByTestId('dossier-back-overview').click();
    await page.waitForURL(`**/defdossier/${fixture.entity.id}`);

    // The vertical detail layout shows the tabs as pills beside the content
    await page.goto(`/contentdossier/${Number(saved?.id)}`);
    await shown(page, 'Name').getByText('Bob Leaving').waitFor();
    expect(await page.getByRole('tablist').getAttribute('aria-orientation')).toBe('vertical');
    await screenshot(page, 'dossier-detail-vertical');

    // An unknown dossier shows the not-found page
    await page.goto('/contentdossier/987654');
    await page.getByTestId('not-found-page').waitFor();
  } finally {
    await close();
  }
});

test('a dossier of another environment of the user switches to that environment', async () => {
  const branch = await buildEnvironment(stack.db, { name: 'Branch office' });
  const admin = await stack.db
    .selectFrom('app_user')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  await addMember(stack.db, branch.id, {
    user: { id: Number(admin.id) },
    credentials: ['environment-admin'],
  });
  const entity = await buildDefDossier(stack.db, branch.id, { name: 'Branch case' });
  const main = await buildDisplayPosition(stack.db, entity, {
    name: 'General',
    type: 'main_content',
    rank: 1,
  });
  const title = await buildDefField(stack.db, branch.id, { type: 'text', name: 'Branch title' });
  const titleData = await buildDataField(stack.db, entity, title.id, { name: 'Title' });
  await buildDisplayItem(stack.db, entity, { dataFieldId: titleData.id, positionId: main.id });
  const id = await insertDossier(stack.db, entity, 'Roof repair', { [titleData.id]: 'Roof repair' });

  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    expect(await page.getByTestId('shell-environment-name').textContent()).toBe('Demo');
    await page.goto(`/contentdossier/${id}`);
    await page.getByTestId('dossier-title').getByText('Roof repair').waitFor();
    await expect.poll(() => page.getByTestId('shell-environment-name').textContent()).toBe('Branch office');
    expect(await page.getByTestId('dossier-breadcrumb').textContent()).toContain('Branch case');
  } finally {
    await close();
  }
});

test('the link picker filters its choices in the filter modal, and creates a new linked dossier in a modal', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.goto(`/contentdossier/create/${fixture.entity.id}`);
    await fillText(page, 'Name', 'Linda Linked');

    // the filter modal narrows the picker's choices to what the linked entity's search finds
    const picker = item(page, 'Organisation');
    const offered = async () => {
      await picker.getByPlaceholder('Search dossiers').click();
      const options = page.getByRole('option');
      await options.first().waitFor();
      return (await options.allTextContents()).sort();
    };
    expect(await offered()).toEqual(['Acme', 'Globex']);
    await page.keyboard.press('Escape');
    await picker.getByTestId('link-filter').click();
    const filter = page.getByTestId('link-filter-modal');
    const nameSearch = filter
      .getByTestId(`dossier-search-${fixture.linkedSearchItemId}`)
      .locator('input:not([type="hidden"])');
    await nameSearch.first().click({ force: true });
    await page.getByRole('option', { name: 'contains', exact: true }).click();
    await nameSearch.nth(1).fill('glob');
    await screenshot(page, 'dossier-link-filter-modal');
    await filter.getByTestId('dossier-search-submit').click();
    await filter.waitFor({ state: 'detached' });
    await expect.poll(offered).toEqual(['Globex']);
    await page.keyboard.press('Escape');
    // opened again, the modal shows the filter as it was; clearing it offers everything again
    await picker.getByTestId('link-filter').click();
    expect(await nameSearch.nth(1).inputValue()).toBe('glob');
    await page.keyboard.press('Escape');
    await filter.waitFor({ state: 'detached' });
    await picker.getByTestId('link-filter-clear').click();
    await expect.poll(offered).toEqual(['Acme', 'Globex']);
    await page.keyboard.press('Escape');

    await item(page, 'Organisation').getByTestId('link-new').click();
    const modal = page.getByTestId('new-linked-dossier-modal');
    await modal.getByText(`New ${fixture.linked.translations[0].name_singular}`).waitFor();
    await modal.locator('input').first().fill('Initech');
    await screenshot(page, 'dossier-new-linked-modal');
    await modal.getByTestId('new-linked-dossier-add').click();
    await modal.waitFor({ state: 'detached' });
    // single select: linked, and the limit message replaces the search and the New button
    await item(page, 'Organisation').getByText('Initech').waitFor();
    await item(page, 'Organisation').getByTestId('link-limit').waitFor();
    expect(await item(page, 'Organisation').getByTestId('link-new').count()).toBe(0);
    await page.getByTestId('dossier-add').click();
    const id = await createdId(page);
    await shown(page, 'Organisation').getByText('Initech').waitFor();
    const link = await stack.db
      .selectFrom('content_link as cl')
      .innerJoin('content_dossier as d', 'd.id', 'cl.child_id')
      .select(['d.summary', 'd.def_dossier_id'])
      .where('cl.parent_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(link).toEqual({ summary: 'Initech', def_dossier_id: fixture.linked.id });
  } finally {
    await close();
  }
}, 120_000);
