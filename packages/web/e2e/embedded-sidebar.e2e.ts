import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../../server/src/db/database';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
  buildDossier,
  buildLink,
} from '../../server/test/entity-factories';
import { buildDefDossier } from '../../server/test/factories';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Two link settings of an embedded list, configured by the admin in the link's settings (issue 19):
// passing_sidebar opens a row in a side panel in the named view of the child entity, and
// limit_embedded_link lists only the tasks whose own 'project' link holds the project, pre-filling
// that link in the Add form.

let stack: Stack;
let fx: Awaited<ReturnType<typeof buildFixture>>;

/** Project with an embedded list of Tasks; Task has a link back to Project and a custom view 'Sidebar'. */
async function buildFixture(db: Db) {
  const env = (
    await db.selectFrom('environment').select('id').where('name', '=', 'Demo').executeTakeFirstOrThrow()
  ).id;
  const project = await buildDefDossier(db, env, { name: 'Programme' });
  const task = await buildDefDossier(db, env, { name: 'Activity', type: 'other' });
  const projectMain = await buildDisplayPosition(db, project, { name: 'General', type: 'main_content' });
  const taskMain = await buildDisplayPosition(db, task, { name: 'General', type: 'main_content' });
  const field = async (entity: typeof task, type: string, name: string) => {
    const base = await buildDefField(db, env, { type, name });
    return { base, data: await buildDataField(db, entity, base.id, { name }) };
  };
  const projectName = await field(project, 'text', 'Programme name');
  const title = await field(task, 'text', 'Title');
  const notes = await field(task, 'text', 'Notes');
  await buildDisplayItem(db, project, { dataFieldId: projectName.data.id, positionId: projectMain.id });
  await buildDisplayItem(db, project, { dataFieldId: projectName.data.id, view: 'summary' });
  await buildDisplayItem(db, task, { dataFieldId: title.data.id, positionId: taskMain.id, rank: 1 });
  await buildDisplayItem(db, task, { dataFieldId: title.data.id, view: 'list', rank: 1 });
  await buildDisplayItem(db, task, { dataFieldId: title.data.id, view: 'summary', rank: 1 });
  // the task's own link to its programme, in its form
  const programmeOf = await buildLink(db, task, project, { name: 'programme' });
  await buildDisplayItem(db, task, { linkId: programmeOf.id, positionId: taskMain.id, rank: 2 });
  // the custom view 'Sidebar' of Activity: a position of its own with the notes and the title
  await db
    .insertInto('display_custom_view')
    .values({ environment_id: env, def_dossier_id: task.id, view_name: 'Sidebar' })
    .execute();
  const sidebar = await buildDisplayPosition(db, task, {
    name: 'At a glance',
    type: 'main_content',
    rank: 5,
  });
  await db
    .updateTable('display_position')
    .set({ view_name: 'Sidebar' })
    .where('id', '=', sidebar.id)
    .execute();
  for (const [rank, f] of [notes, title].entries())
    await buildDisplayItem(db, task, {
      dataFieldId: f.data.id,
      view: 'Sidebar',
      positionId: sidebar.id,
      rank,
    });

  const tasks = await buildLink(db, project, task, { name: 'Activities', typeOfLink: 'embeddedList' });
  await db
    .updateTable('def_dossier_link')
    .set({ settings: { multiple: true } })
    .where('id', '=', tasks.id)
    .execute();
  const tasksItem = await buildDisplayItem(db, project, {
    linkId: tasks.id,
    positionId: projectMain.id,
    rank: 2,
  });
  const apollo = await buildDossier(db, project, 'Apollo', { [projectName.data.id]: 'Apollo' });
  const gemini = await buildDossier(db, project, 'Gemini', { [projectName.data.id]: 'Gemini' });
  const design = await buildDossier(db, task, 'Design', {
    [title.data.id]: 'Design',
    [notes.data.id]: 'Sketch the landing page',
  });
  const build = await buildDossier(db, task, 'Build', { [title.data.id]: 'Build' });
  await db
    .insertInto('content_link')
    .values([
      // both tasks are in Apollo's list; only Design names Apollo as its programme, Build names Gemini
      { environment_id: env, link_id: tasks.id, parent_id: apollo, child_id: design, rank: 0 },
      { environment_id: env, link_id: tasks.id, parent_id: apollo, child_id: build, rank: 1 },
      { environment_id: env, link_id: programmeOf.id, parent_id: design, child_id: apollo, rank: 0 },
      { environment_id: env, link_id: programmeOf.id, parent_id: build, child_id: gemini, rank: 0 },
    ])
    .execute();
  return { project, task, tasks, tasksItem, programmeOf, apollo, design, build, title, env };
}

beforeAll(async () => {
  stack = await startStack();
  fx = await buildFixture(stack.db);
});
afterAll(() => stack?.close());

/** Picks an option of a Mantine Select by its label. */
async function choose(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click({ force: true });
  await page.getByRole('option', { name: label, exact: true }).click();
}

const embedded = (page: Page) => page.getByTestId(`embedded-list-${fx.tasks.id}`);
const rows = (page: Page) => embedded(page).getByTestId('dossier-row');

test('the admin sets passing_sidebar and limit_embedded_link; a row opens in the side panel in that view', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    // without the settings Apollo lists both tasks, and a row leaves for the task's page
    await page.goto(`/contentdossier/${fx.apollo}`);
    await rows(page).first().waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);

    // the link's settings in the field designer: the sidebar view and the limiting link
    await page.goto(`/fieldeditor/${fx.project.id}`);
    await page.getByTestId(`designer-cog-${fx.tasksItem.id}`).click();
    await page.getByTestId('cog-link').click();
    await page.getByRole('tab', { name: 'Cascade' }).click();
    await choose(page, 'setting-passing_sidebar', 'Sidebar');
    await choose(page, 'setting-limit_embedded_link', 'programme');
    await screenshot(page, 'embedded-sidebar-settings');
    await page.getByTestId('link-save').click();
    await page.getByTestId('link-save').waitFor({ state: 'hidden' });
    await expect
      .poll(async () => {
        const row = await stack.db
          .selectFrom('def_dossier_link')
          .select('settings')
          .where('id', '=', fx.tasks.id)
          .executeTakeFirstOrThrow();
        const settings = row.settings as Record<string, unknown>;
        return [settings.passing_sidebar, settings.limit_embedded_link];
      })
      .toEqual(['Sidebar', fx.programmeOf.id]);

    // Apollo lists only Design now (Build's programme is Gemini)
    await page.goto(`/contentdossier/${fx.apollo}`);
    await rows(page).filter({ hasText: 'Design' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(1);

    // a row opens in the side panel, in the Sidebar view; the page stays Apollo's
    await rows(page).getByText('Design', { exact: true }).first().click();
    const panel = page.getByRole('dialog', { name: 'Design' });
    await panel.getByTestId('dossier-side-panel-content').waitFor();
    await panel.getByText('At a glance', { exact: true }).waitFor();
    await panel.getByText('Sketch the landing page', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/contentdossier/${fx.apollo}`);
    await screenshot(page, 'embedded-sidebar-panel');

    // Escape closes it; the link in it opens the task's own page
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await rows(page).getByText('Design', { exact: true }).first().click();
    await panel.getByTestId('dossier-side-panel-open').click();
    await page.waitForURL(`**/contentdossier/${fx.design}`);
  } catch (error) {
    await page.screenshot({ path: '.test-artifacts/embedded-sidebar-failure.png', fullPage: true });
    throw error;
  } finally {
    await close();
  }
});

test("Add from the limited list pre-fills the task's programme link with the project", async () => {
  // as the admin saved them above (set again, so this scenario stands on its own)
  await stack.db
    .updateTable('def_dossier_link')
    .set({ settings: { multiple: true, passing_sidebar: 'Sidebar', limit_embedded_link: fx.programmeOf.id } })
    .where('id', '=', fx.tasks.id)
    .execute();
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    // Add from Apollo's list: the programme link starts holding Apollo, and the new task is listed
    await page.goto(`/contentdossier/${fx.apollo}`);
    await rows(page).first().waitFor();
    await expect.poll(() => rows(page).count()).toBe(1);
    await embedded(page).getByTestId('embedded-add').click();
    const modal = page.getByTestId('embedded-add-form');
    await modal.getByText('Apollo', { exact: true }).waitFor();
    await modal.getByLabel('Title').fill('Deploy');
    await screenshot(page, 'embedded-sidebar-add-prefilled');
    await page.getByTestId('embedded-add-save').click();
    await rows(page).filter({ hasText: 'Deploy' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);
    const booked = await stack.db
      .selectFrom('content_link')
      .innerJoin('content_dossier', 'content_dossier.id', 'content_link.parent_id')
      .select('content_link.child_id')
      .where('content_link.link_id', '=', fx.programmeOf.id)
      .where('content_dossier.summary', '=', 'Deploy')
      .execute();
    expect(booked.map((row) => Number(row.child_id))).toEqual([fx.apollo]);
  } catch (error) {
    await page.screenshot({ path: '.test-artifacts/embedded-sidebar-add-failure.png', fullPage: true });
    throw error;
  } finally {
    await close();
  }
});
