import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemoRecords } from '../../server/src/seed-records';
import {
  DEMO_PASSWORD,
  demoClient,
  openBrowser,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  signIn,
  startStack,
  tabTo,
} from './harness';

// The top bar's favourites panel and quick search (issue 21, parts 1 and 2): the admin marks a dossier,
// finds it in the panel, searches there and removes it; the demo user (quick_search credential) finds a
// dossier by part of its summary and opens it with the keyboard alone.

let stack: Stack;
let dossier: { id: number; summary: string };

beforeAll(async () => {
  stack = await startStack();
  await seedDemoRecords(stack.db);
  // the newest: the quick search lists the newest matches first
  dossier = await demoClient(stack.db, 'newest');
}, 120_000);
afterAll(() => stack?.close());

test('the favourites panel lists a favourited dossier, searches it and removes it', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await page.getByTestId('shell-favourites').click();
    await page.getByTestId('favourites-empty').waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`/contentdossier/${dossier.id}`);
    await page.getByTestId('dossier-title').waitFor();
    await page.getByTestId('dossier-favourite').click();
    await expect.poll(() => page.getByTestId('dossier-favourite').getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId('shell-favourites').click();
    const item = page.getByTestId('favourite-item');
    await item.waitFor();
    expect(await item.count()).toBe(1);
    expect(await item.textContent()).toContain('Clients');
    expect(await item.textContent()).toContain(dossier.summary.slice(0, 20));
    await screenshot(page, 'favourites-panel');

    // the search narrows the list on the server; a text no summary holds finds nothing
    await page.getByTestId('favourites-search').fill('no summary holds this');
    await page.getByTestId('favourites-empty').waitFor();
    await page.getByTestId('favourites-search').fill(dossier.summary.slice(0, 4));
    await item.waitFor();

    // the link opens the dossier and closes the panel
    await page.getByTestId('favourite-link').click();
    await page.waitForURL(`**/contentdossier/${dossier.id}`);
    await page
      .getByTestId('favourites-panel')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);

    await page.getByTestId('shell-favourites').click();
    await page.getByTestId('favourite-remove').click();
    await page.getByTestId('favourites-empty').waitFor();
    // the dossier's own star follows
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('dossier-favourite').getAttribute('aria-pressed')).toBe('false');
  } finally {
    await close();
  }
});

test('quick search finds a dossier by part of its summary and opens it with the keyboard alone', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    // the demo user has one environment and lands in it
    await signIn(page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await page.getByTestId('main-menu').waitFor();
    await tabTo(page, '[data-testid="quick-search"]');
    await page.keyboard.type('no summary holds this');
    await page.getByTestId('quick-search-empty').waitFor();
    await screenshot(page, 'quick-search-empty');

    await page.keyboard.press('Control+A');
    const part = dossier.summary.slice(1, 6);
    await page.keyboard.type(part);
    const hits = page.getByTestId('quick-search-hit');
    await hits.first().waitFor();
    expect(await hits.count()).toBeLessThanOrEqual(10);
    const texts = await hits.allTextContents();
    expect(texts.every((text) => text.toLowerCase().includes(part.toLowerCase()))).toBe(true);
    await screenshot(page, 'quick-search-hits');

    // Escape closes the list; typing opens it again; the arrows choose and Enter opens
    await page.keyboard.press('Escape');
    await page.getByTestId('quick-search-results').waitFor({ state: 'hidden' });
    await page.keyboard.press('ArrowDown');
    await hits.first().waitFor();
    const index = texts.findIndex((text) => text.includes(dossier.summary.slice(0, 40)));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/contentdossier/${dossier.id}`);
    await page.getByTestId('dossier-title').waitFor();
  } finally {
    await close();
  }
});
