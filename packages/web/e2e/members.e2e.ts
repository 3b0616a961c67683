import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openBrowser, openDemoAsAdmin, type Stack, screenshot, startStack } from './harness';

// Users and membership (issue 16, part 1): an admin invites a colleague by e-mail; the colleague
// opens the link of the mail the SMTP server received, chooses a password and lands in the
// environment; the admin deactivates the colleague, whose next click ends on the 403 message.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

async function openUsers(page: Page) {
  await page.getByTestId('menu-admin').click();
  await page.getByTestId('menu-admin-users').click();
  await page.waitForURL('**/user');
  await page.getByTestId('members-table').waitFor();
}

/** The member's row on /user, once the list shows it. */
const rowOf = (page: Page, name: string) =>
  page.getByTestId('members-table').locator('tr', { hasText: name });

test('an invited colleague signs in from the mail, and loses access the moment they are deactivated', async () => {
  const email = 'new.colleague@example.test';
  const admin = await openBrowser(stack.baseUrl);
  const colleague = await openBrowser(stack.baseUrl, { locale: 'nl-NL' });
  try {
    // The admin invites a colleague with the Caseworker role.
    await openDemoAsAdmin(admin.page, stack.baseUrl);
    await openUsers(admin.page);
    await screenshot(admin.page, 'members-list');
    await admin.page.getByTestId('members-invite').click();
    const modal = admin.page.getByTestId('invite-modal');
    await modal.getByTestId('invite-email').fill('not an address');
    await modal.getByTestId('invite-send').click();
    await modal.getByText('Enter a valid e-mail address').waitFor();
    await modal.getByTestId('invite-email').fill(email);
    await modal.getByLabel('First name').fill('Noor');
    await modal.getByLabel('Last name').fill('Jansen');
    await modal.getByLabel('Caseworker').check();
    await modal.getByLabel('Quick search').check();
    await screenshot(admin.page, 'members-invite');
    await modal.getByTestId('invite-send').click();
    await admin.page.getByTestId('notification-success').filter({ hasText: email }).waitFor();
    const row = rowOf(admin.page, 'Noor Jansen');
    await row.waitFor();
    expect(await row.getByTestId('member-status').textContent()).toBe('Invitation pending');
    expect(await row.textContent()).toContain('Caseworker');

    // The colleague opens the link of the mail, chooses a password and lands in the environment.
    const mail = await stack.smtp.waitForMail(email);
    expect(mail.subject).toBe('You are invited to Demo');
    const link = /https?:\/\/\S+\/login\?\S+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeTruthy();
    await colleague.page.goto(link!);
    await colleague.page.getByTestId('password-update').waitFor();
    await screenshot(colleague.page, 'members-invited-password-nl');
    await colleague.page.getByTestId('password-update-password').fill('noor her own password');
    await colleague.page.getByTestId('password-update-repeat').fill('noor her own password');
    await colleague.page.getByTestId('password-update-submit').click();
    await colleague.page.getByTestId('main-shell').waitFor();
    await colleague.page.waitForURL(`${stack.baseUrl}/`);
    const entities = colleague.page.getByTestId('menu-entity');
    await entities.first().waitFor();
    await screenshot(colleague.page, 'members-invited-landed-nl');

    // The admin sees the colleague active, opens their page and deactivates them.
    await admin.page.reload();
    await rowOf(admin.page, 'Noor Jansen')
      .getByTestId('member-status')
      .getByText('Active', { exact: true })
      .waitFor();
    await rowOf(admin.page, 'Noor Jansen').getByTestId('member-link').click();
    await admin.page.getByTestId('member-page').waitFor();
    await screenshot(admin.page, 'member-page');
    await admin.page.getByTestId('member-active').click();
    await admin.page.getByTestId('notification-success').filter({ hasText: 'deactivated' }).waitFor();
    await admin.page.getByTestId('member-status').filter({ hasText: 'Inactive' }).waitFor();
    await screenshot(admin.page, 'member-page-deactivated');

    // The colleague's next click, in the session that is still open, ends on the 403 message.
    await entities.first().click();
    const refused = colleague.page.locator(
      '[data-testid="dossier-list-forbidden"], [data-testid="dossier-not-allowed"]',
    );
    await refused.waitFor();
    expect(await refused.textContent()).toBe('Je hebt geen rechten om dit te doen.');
    await screenshot(colleague.page, 'members-deactivated-403-nl');
  } catch (error) {
    await screenshot(admin.page, 'members-failure-admin').catch(() => undefined);
    await screenshot(colleague.page, 'members-failure-colleague').catch(() => undefined);
    throw error;
  } finally {
    await admin.close();
    await colleague.close();
  }
}, 300_000);

test('in Dutch: the user list, the invitation and a member page that explains why the last admin stays', async () => {
  const { page, close } = await openBrowser(stack.baseUrl, { locale: 'nl-NL' });
  try {
    await openDemoAsAdmin(page, stack.baseUrl);
    await openUsers(page);
    await page.getByTestId('members-search').fill('admin');
    // the list follows the search (debounced): only the admin is left
    await page.getByTestId('members-total').filter({ hasText: 'Totaal: 1' }).waitFor();
    await rowOf(page, 'admin').waitFor();
    await screenshot(page, 'members-list-nl');
    await page.getByTestId('members-invite').click();
    const modal = page.getByTestId('invite-modal');
    await modal.getByTestId('invite-send').click();
    await modal.getByText('Dit is een verplicht veld').waitFor();
    await screenshot(page, 'members-invite-nl');
    await modal.getByTestId('invite-modal-cancel').click();

    // The demo admin is the only admin of Demo: the page says so and the server keeps them admin.
    await rowOf(page, 'admin').getByTestId('member-link').click();
    await page.getByTestId('member-last-admin').waitFor();
    await page.getByTestId('member-access').getByTestId('member-credential-environment-admin').click();
    await page.getByTestId('member-access-save').click();
    // the server's message, under the credentials it is about
    await page
      .getByTestId('member-access')
      .getByText(
        'Een omgeving heeft minstens één actieve beheerder nodig. Maak eerst een ander lid beheerder.',
      )
      .waitFor();
    await screenshot(page, 'member-page-nl');
  } finally {
    await close();
  }
}, 180_000);
