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
  chooseOption,
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

const pick = (page: Page, field: string, option: string) =>
  chooseOption(page, item(page, field).locator('input').first(), option);

async function createdId(page: Page): Promise<number> {
  await page.waitForURL(/\/contentdossier\/\d+$/);
  await page.getByTestId('dossier-detail-page').waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

test('an admin creates, reads and edits a dossier with every field type; duplicates, archive and role visibility', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  page.on('pageerror', (error) => console.error('page error:', error.message));
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
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
    await chooseOption(page, item(page, 'Organisation').locator('input').first(), 'Acme');
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
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
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
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
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

/** An entity with dossier-data, block and text items carrying information texts; one dossier. */
async function buildNotebook(name: string) {
  const env = fixture.environmentId;
  const entity = await buildDefDossier(stack.db, env, { name });
  const main = await buildDisplayPosition(stack.db, entity, {
    name: 'General',
    type: 'main_content',
    rank: 1,
  });
  const tab = await buildDisplayPosition(stack.db, entity, { name: 'Details', type: 'tab', rank: 2 });
  const textField = async (fieldName: string) => {
    const base = await buildDefField(stack.db, env, { type: 'text', name: `${name} ${fieldName}` });
    return buildDataField(stack.db, entity, base.id, { name: fieldName });
  };
  const title = await textField('Title');
  const notes = await textField('Notes');
  const remarks = await textField('Remarks');
  const titleItem = await buildDisplayItem(stack.db, entity, {
    dataFieldId: title.id,
    positionId: main.id,
    rank: 1,
  });
  const notesItem = await buildDisplayItem(stack.db, entity, {
    dataFieldId: notes.id,
    positionId: main.id,
    rank: 2,
    settings: { show_info_direct: true },
  });
  await buildDisplayItem(stack.db, entity, { dataFieldId: remarks.id, positionId: tab.id });
  const data: Record<string, number> = {};
  for (const [rank, key] of ['summary', 'dossier_id', 'created_at', 'created_by'].entries()) {
    const shown = await buildDisplayItem(stack.db, entity, {
      positionId: main.id,
      view: 'show',
      rank: 3 + rank,
      settings: { dossier_data: key },
    });
    data[key] = shown.id;
  }
  const block = await buildDisplayItem(stack.db, entity, {
    positionId: main.id,
    view: 'show',
    rank: 9,
    settings: { block: 5 },
  });
  const listed = await buildDisplayItem(stack.db, entity, {
    view: 'list',
    settings: { dossier_data: 'created_at' },
  });
  await buildDisplayItem(stack.db, entity, { dataFieldId: title.id, view: 'summary' });
  const texts = (name: string, settings: Record<string, string>) =>
    JSON.stringify([{ culture: 'en_GB', name, settings }]);
  await stack.db
    .updateTable('display_item')
    .set({
      translations: texts('Title', {
        pretext: `Read {dossier:${fixture.linkedDossiers.acme}} first<img src=x onerror="window.__pretextScript = 1">`,
        informationtext: '<b>Short</b> and clear',
      }),
    })
    .where('id', '=', titleItem.id)
    .execute();
  await stack.db
    .updateTable('display_item')
    .set({ translations: texts('Notes', { informationtext: 'Anything worth <i>keeping</i>' }) })
    .where('id', '=', notesItem.id)
    .execute();
  const id = await insertDossier(stack.db, entity, 'First page', { [title.id]: 'First page' });
  await stack.db
    .updateTable('content_dossier')
    .set({ created_by: fixture.adminUserId })
    .where('id', '=', id)
    .execute();
  return { entity, id, tab, titleItem, notesItem, data, block, listed };
}

test('dossier data, block items, information texts and pre-texts on the dossier page', async () => {
  const notebook = await buildNotebook('Notebook');
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/${notebook.id}`);
    const value = (itemId: number) => page.getByTestId(`dossier-value-${itemId}`);
    await value(notebook.data.summary).getByText('First page').waitFor();
    expect(await value(notebook.data.dossier_id).textContent()).toContain(String(notebook.id));
    expect(await value(notebook.data.created_at).textContent()).toMatch(/\d{2}-\d{2}-\d{4}/);
    expect(await value(notebook.data.created_by).textContent()).toBe('Demo Administrator');
    expect(await page.getByTestId('unknown-field-type').count()).toBe(0);
    // a block item whose block does not exist (or is hidden from the user) draws no block
    expect(
      await page.getByTestId(`dossier-item-${notebook.block.id}`).getByTestId('dossier-block').count(),
    ).toBe(0);

    // The pre-text stands above the field; its dossier tag opens that dossier in a new window.
    const pretext = page.getByTestId(`item-pretext-${notebook.titleItem.id}`);
    expect(await pretext.textContent()).toBe(`Read dossier #${fixture.linkedDossiers.acme} first`);
    const link = pretext.locator('a');
    expect(await link.getAttribute('href')).toBe(`/contentdossier/${fixture.linkedDossiers.acme}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    expect(
      await page.evaluate(() => (window as { __pretextScript?: number }).__pretextScript),
    ).toBeUndefined();
    // The information text opens from the icon beside the label, or shows at once (show_info_direct).
    expect(await page.getByTestId(`item-info-${notebook.titleItem.id}`).count()).toBe(0);
    await page.getByTestId(`item-info-toggle-${notebook.titleItem.id}`).click();
    const info = page.getByTestId(`item-info-${notebook.titleItem.id}`);
    expect(await info.innerHTML()).toBe('<b>Short</b> and clear');
    expect(await page.getByTestId(`item-info-${notebook.notesItem.id}`).innerHTML()).toBe(
      'Anything worth <i>keeping</i>',
    );
    expect(await page.getByTestId(`item-info-toggle-${notebook.notesItem.id}`).count()).toBe(0);
    await screenshot(page, 'dossier-information-texts');

    // Edit mode shows them too; the list shows dossier data the same way.
    await page.keyboard.press('Escape');
    await page.getByTestId('dossier-edit').click();
    await page.getByTestId(`item-pretext-${notebook.titleItem.id}`).waitFor();
    await page.getByTestId(`item-info-toggle-${notebook.titleItem.id}`).waitFor();
    await page.getByTestId('dossier-cancel').click();
    await page.goto(`/defdossier/${notebook.entity.id}`);
    await page
      .getByTestId(`dossier-cell-${notebook.listed.id}`)
      .getByText(/\d{2}-\d{2}-\d{4}/)
      .waitFor();
    expect(await page.getByTestId('unknown-field-type').count()).toBe(0);
  } finally {
    await close();
  }
});

test('leaving edit mode on the dossier page with changes asks first: Cancel, another tab, a menu link', async () => {
  const notebook = await buildNotebook('Diary');
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/${notebook.id}`);
    const title = page.getByTestId(`dossier-item-${notebook.titleItem.id}`).locator('input');
    const leave = page.getByTestId('dossier-leave-modal');
    const stay = async () => {
      await leave.getByText('Discard changes to First page').waitFor();
      await page.getByTestId('dossier-continue-working').click();
      await leave.waitFor({ state: 'hidden' });
      expect(await title.inputValue()).toBe('Second thoughts');
    };

    // Without changes Cancel just leaves edit mode.
    await page.getByTestId('dossier-edit').click();
    await page.getByTestId('dossier-cancel').click();
    await page.getByTestId('dossier-edit').click();
    await title.fill('Second thoughts');

    await page.getByTestId('dossier-cancel').click();
    await stay();
    await page.getByTestId(`dossier-tab-${notebook.tab.id}`).click();
    await stay();
    expect(new URL(page.url()).search).toBe('');
    await page.getByTestId('menu-dashboard').click();
    await stay();
    expect(new URL(page.url()).pathname).toBe(`/contentdossier/${notebook.id}`);
    await screenshot(page, 'dossier-leave-edit');

    // Leave page throws the changes away.
    await page.getByTestId('dossier-cancel').click();
    await page.getByTestId('dossier-leave-page').click();
    await page.getByTestId(`dossier-value-${notebook.titleItem.id}`).getByText('First page').waitFor();
    await page.getByTestId('dossier-edit').click();
    await title.fill('Second thoughts');
    await page.getByTestId('menu-dashboard').click();
    await page.getByTestId('dossier-leave-page').click();
    await page.waitForURL(`${stack.baseUrl}/`);
    const stored = await stack.db
      .selectFrom('content_dossier')
      .select('summary')
      .where('id', '=', notebook.id)
      .executeTakeFirstOrThrow();
    expect(stored.summary).toBe('First page');
  } finally {
    await close();
  }
});
