import { type Catalogue, catalogueEntries } from '@dossierbase/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEnvironment } from '../../server/test/factories';
import { languageOf } from '../src/app/locale';
import de from '../src/i18n/de.json';
import en from '../src/i18n/en.json';
import nl from '../src/i18n/nl.json';
import ru from '../src/i18n/ru.json';
import { buildEveryTypeEntity, type EveryTypeEntity, insertDossiers } from './dossier-fixture';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// The shell, a dossier list, a dossier and the field designer in Dutch, German and Russian: each
// screen passes axe (through screenshot) and shows none of the English catalogue's phrases.

const LANGUAGES = [
  ['nl_NL', nl],
  ['de_DE', de],
  ['ru_RU', ru],
] as const;

/** English phrases (two words or more, without placeholders) that the language writes otherwise. */
function englishPhrases(catalogue: Catalogue): string[] {
  const translated = new Map(catalogueEntries(catalogue));
  return catalogueEntries(en as Catalogue)
    .filter(([key, text]) => translated.get(key) !== text && /\S \S/.test(text) && !text.includes('{{'))
    .map(([, text]) => text);
}

let stack: Stack;
let fixture: EveryTypeEntity;
let demoId: number;
beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Person');
  await insertDossiers(stack.db, fixture, [
    { Name: 'Alice', Amount: 12.5, Email: 'alice@example.org' },
    { Name: 'Bob', Amount: 3 },
  ]);
  // the Demo environment offers English and Dutch; German and Russian join for this scenario
  const demo = await stack.db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  demoId = demo.id;
  const locales = await stack.db
    .selectFrom('locale')
    .select('id')
    .where('code', 'in', ['de_DE', 'ru_RU'])
    .execute();
  await stack.db
    .insertInto('environment_locale')
    .values(locales.map((l, i) => ({ environment_id: demo.id, locale_id: l.id, rank: 2 + i })))
    .execute();
});
afterAll(() => stack?.close());

async function expectNoEnglish(page: Page, phrases: string[], screen: string) {
  const text = await page.locator('body').innerText();
  expect(
    phrases.filter((phrase) => text.includes(phrase)),
    screen,
  ).toEqual([]);
}

test.each(LANGUAGES)('the shell, a list, a dossier and the field designer in %s', async (code, catalogue) => {
  const phrases = englishPhrases(catalogue as Catalogue);
  const language = languageOf(code);
  const { page, close } = await openBrowser(stack.baseUrl);
  // the catalogues the browser fetched: English is in the first load, another only once it is shown
  const catalogueLoads: string[] = [];
  page.on('request', (request) => {
    const loaded = /\/assets\/(nl|de|fr|es|ru)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
    if (loaded) catalogueLoads.push(loaded[1]);
  });
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    expect(catalogueLoads).toEqual([]);
    await page.getByTestId('language-switch').click();
    await page.getByTestId(`language-option-${code}`).click();
    await page.waitForFunction(
      (expected) => document.body.innerText.includes(expected),
      catalogue.shell.help,
    );
    expect(catalogueLoads).toEqual([language]);
    await screenshot(page, `language-${code}-shell`);
    await expectNoEnglish(page, phrases, 'shell');

    const entityId = fixture.entity.id;
    await page.locator(`[data-testid="menu-entity"][data-entity-id="${entityId}"]`).click();
    await page.waitForURL(`**/defdossier/${entityId}`);
    await page.getByTestId('dossier-row').first().waitFor();
    await screenshot(page, `language-${code}-list`);
    await expectNoEnglish(page, phrases, 'list');

    await page.getByTestId('dossier-row').first().click();
    await page.waitForURL('**/contentdossier/*');
    await page.getByTestId('dossier-detail-page').waitFor();
    await screenshot(page, `language-${code}-dossier`);
    await expectNoEnglish(page, phrases, 'dossier');

    await page.goto(`/fieldeditor/${entityId}`);
    await page.getByTestId('field-designer').waitFor();
    await page.locator('[data-testid^="designer-item-"]').first().waitFor();
    await screenshot(page, `language-${code}-designer`);
    await expectNoEnglish(page, phrases, 'field designer');
    // the page opened from the address bar loaded its language (again, or from the cache), no other
    expect(new Set(catalogueLoads)).toEqual(new Set([language]));
  } finally {
    await close();
  }
});

test("an environment's own wording of a text shows in that environment, in its language, and not in another", async () => {
  const admin = await stack.db
    .selectFrom('app_user')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  const other = await buildEnvironment(stack.db, {
    name: 'Second office',
    members: [{ user: admin, credentials: ['environment-admin'] }],
    locales: ['en_GB', 'nl_NL'],
  });
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    // the Demo environment's own words for "Help", set through the API with the admin's session
    for (const [locale, value] of [
      ['en', 'Questions'],
      ['nl', 'Vragen'],
    ]) {
      const saved = await page.request.put(`/api/environment/${demoId}/text/${locale}/shell.help`, {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
        data: { value },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
    await page.reload();
    const help = page.getByTestId('shell-help-contact');
    await expect.poll(() => help.textContent()).toContain('Questions:');
    await screenshot(page, 'environment-texts-own');

    // another language: the environment's word in that language; and back
    const switchTo = async (code: string) => {
      await page.getByTestId('language-switch').click();
      await page.getByTestId(`language-option-${code}`).click();
    };
    await switchTo('nl_NL');
    await expect.poll(() => help.textContent()).toContain('Vragen:');
    await switchTo('en_GB');
    await expect.poll(() => help.textContent()).toContain('Questions:');

    // another environment: the catalogue's word, once its own texts (none) are read
    await page.goto('/environment');
    const read = page.waitForResponse((answer) => answer.url().includes(`/api/environment/${other.id}/text`));
    await page
      .getByTestId('environment-card')
      .filter({ hasText: 'Second office' })
      .getByTestId('environment-open')
      .click();
    await page.waitForURL(`${stack.baseUrl}/`);
    await read;
    await expect.poll(() => help.textContent()).toContain(`${en.shell.help}:`);
    expect(await page.locator('body').textContent()).not.toContain('Questions');
    await screenshot(page, 'environment-texts-other');
  } finally {
    await close();
  }
});
