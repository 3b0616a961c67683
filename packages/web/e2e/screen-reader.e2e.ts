import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEveryTypeEntity, type EveryTypeEntity } from './dossier-fixture';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// What a screen reader is told: a form's errors are tied to their fields (aria-invalid, and
// aria-describedby naming the error, which is read out as it appears), and toasts come in live
// regions.

let stack: Stack;
let fixture: EveryTypeEntity;
beforeAll(async () => {
  stack = await startStack();
  fixture = await buildEveryTypeEntity(stack.db, 'Reader');
  // the link is obligatory too: the picker is one of the dossier form's own components
  await stack.db
    .updateTable('def_dossier_link')
    .set({ obligatory: true })
    .where('def_dossier_id', '=', fixture.entity.id)
    .execute();
}, 120_000);
afterAll(() => stack?.close());

/** What a screen reader hears of an input: whether it is invalid, and the texts it is described by. */
const description = (page: Page, selector: string) =>
  page.locator(selector).evaluate((input) => ({
    invalid: input.getAttribute('aria-invalid'),
    describedBy: (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => {
        const element = document.getElementById(id);
        return { text: element?.textContent, alert: element?.closest('[role="alert"]') !== null };
      }),
  }));

/** The live region a toast of `testId` is in (its politeness), or null. */
const toastRegion = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((toast) => ({
    role: toast.getAttribute('role'),
    region: toast.closest('[aria-live]')?.getAttribute('aria-live') ?? null,
  }));

test('a dossier saved with its required fields empty: each field is invalid and described by its error, and a toast says so', async () => {
  const { page, close } = await openBrowser(stack.baseUrl);
  try {
    await openDemoAsAdmin(page, stack.baseUrl, `/contentdossier/create/${fixture.entity.id}`);
    await page.getByTestId('dossier-create-page').waitFor();
    await page.getByTestId('dossier-add').click();

    const name = `[data-testid="dossier-item-${fixture.fields.Name.itemId}"] input`;
    const link = `[data-testid="dossier-item-${fixture.fields.Organisation.itemId}"] input`;
    await expect.poll(() => page.locator(name).getAttribute('aria-invalid')).toBe('true');
    const required = { text: 'This is a required field', alert: true };
    expect(await description(page, name)).toEqual({ invalid: 'true', describedBy: [required] });
    expect(await description(page, link)).toEqual({ invalid: 'true', describedBy: [required] });
    expect(await toastRegion(page, 'notification-error')).toEqual({ role: 'alert', region: 'polite' });
    await screenshot(page, 'screen-reader-required');

    // filled in, the errors go and the saved toast is a status message in the live region
    await page.locator(name).fill('Rita Reader');
    await page.locator(link).click();
    await page.getByRole('option', { name: 'Acme', exact: true }).click();
    await page.getByTestId('dossier-add').click();
    await page.waitForURL(/\/contentdossier\/\d+$/);
    expect(await toastRegion(page, 'notification-success')).toEqual({ role: 'status', region: 'polite' });
    await screenshot(page, 'screen-reader-saved');
  } finally {
    await close();
  }
});
