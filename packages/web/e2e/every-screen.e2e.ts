import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemoRecords } from '../../server/src/seed-records';
import { hrefsOf, openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Every Admin settings link and every user-menu link of the Demo environment opens a working screen,
// in English and in Dutch: each is screenshotted (.test-artifacts/screen-<language>-<path>.png) and
// checked by axe once it has loaded. A link is shown only when its screen exists (app/built-routes.ts),
// so a screen added later is visited here without touching this file.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  await seedDemoRecords(stack.db);
});
afterAll(() => stack?.close());

async function menuLinks(page: Page): Promise<string[]> {
  // the Admin settings group opens on a click when it is not open already (it is on its own screens)
  const firstAdminLink = page.locator('a[data-testid^="menu-admin-"]').first();
  if (!(await firstAdminLink.isVisible())) await page.getByTestId('menu-admin').click();
  await firstAdminLink.waitFor();
  const adminLinks = await hrefsOf(page, 'a[data-testid^="menu-admin-"]');
  await page.getByTestId('user-menu').click();
  await page.locator('a[data-testid^="user-menu-"]').first().waitFor();
  const userLinks = await hrefsOf(page, 'a[data-testid^="user-menu-"]');
  await page.keyboard.press('Escape');
  return [...adminLinks, ...userLinks];
}

/** Opens each screen from the address bar and waits until nothing on it is loading any more. */
async function visitEach(page: Page, hrefs: string[], language: string) {
  for (const href of hrefs) {
    await page.goto(href);
    await page.getByTestId('main-menu').waitFor();
    await expect
      .poll(() => page.locator('.mantine-Loader-root, [aria-busy="true"]').count(), { timeout: 15_000 })
      .toBe(0);
    expect({ href, notFound: await page.getByTestId('not-found-page').count() }).toEqual({
      href,
      notFound: 0,
    });
    expect({ href, error: await page.getByTestId('error-page').count() }).toEqual({ href, error: 0 });
    await screenshot(page, `screen-${language}-${href.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`);
  }
}

const SOME_LINKS = ['/environment/edit', '/roles', '/permissions', '/logs', '/user', '/profile'];

test.each([
  ['en', null],
  ['nl', 'nl_NL'],
] as const)('every Admin settings and user-menu screen opens, in %s', async (language, locale) => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    if (locale) {
      await page.getByTestId('language-switch').click();
      await page.getByTestId(`language-option-${locale}`).click();
      await page.getByTestId('menu-admin').getByText('Beheerinstellingen').waitFor();
    }
    const hrefs = await menuLinks(page);
    // the screens of this parts and those before: at least these
    expect(hrefs).toEqual(expect.arrayContaining(SOME_LINKS));
    await visitEach(page, hrefs, language);
  } finally {
    await close();
  }
});
