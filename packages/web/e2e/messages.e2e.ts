import type { Page } from 'playwright-core';
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
} from './harness';

// Messages (issue 21, part 3): the admin (A) sends a pop-up message about a dossier to the demo user (B).
// B's bell count rises without a reload, the pop-up shows; B opens the message, follows the dossier
// link and replies; A's bell count rises and A reads the reply.

let stack: Stack;
let dossier: { id: number; summary: string };

beforeAll(async () => {
  stack = await startStack();
  await seedDemoRecords(stack.db);
  dossier = await demoClient(stack.db);
}, 120_000);
afterAll(() => stack?.close());

const bellCount = (page: Page) => page.getByTestId('bell-count').getAttribute('data-count');

test('a pop-up message about a dossier reaches its recipient at once, who opens it, follows the dossier and replies', async () => {
  const a = await openBrowser(stack.baseUrl);
  const b = await openBrowser(stack.baseUrl);
  try {
    await signIn(b.page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await b.page.getByTestId('main-menu').waitFor();
    await expect.poll(() => bellCount(b.page)).toBe('0');

    await openDemoAsAdmin(a.page, stack.baseUrl, `/contentdossier/${dossier.id}`);
    await a.page.getByTestId('dossier-title').waitFor();
    await a.page.getByTestId('dossier-message').click();
    const compose = a.page.getByTestId('compose-modal');
    await compose.waitFor();
    expect(await a.page.getByTestId('compose-dossier').textContent()).toContain(dossier.summary);
    // nothing filled in: each required field says so
    await a.page.getByTestId('compose-send').click();
    await expect.poll(() => compose.getByText('This is a required field').count()).toBe(3);
    await a.page.getByTestId('compose-to').click();
    await a.page.getByTestId('compose-to').pressSequentially('demo');
    await a.page.getByRole('option', { name: 'Demo User' }).click();
    await a.page.getByTestId('compose-title').fill('Please look at this client');
    await compose.locator('.ProseMirror').click();
    await a.page.keyboard.type('The address changed last week.');
    await a.page.getByTestId('compose-type').getByText('Pop-up').click();
    await screenshot(a.page, 'messages-compose');
    await a.page.getByTestId('compose-send').click();
    await compose.waitFor({ state: 'detached' });

    // B: the count rises without a reload, and the pop-up shows
    await expect.poll(() => bellCount(b.page), { timeout: 10_000 }).toBe('1');
    const popup = b.page.getByTestId('popup-message');
    await popup.waitFor({ timeout: 15_000 });
    expect(await popup.textContent()).toContain('The address changed last week.');
    await screenshot(b.page, 'messages-popup');
    await b.page.getByTestId('popup-inbox').click();
    await b.page.getByTestId('message-page').waitFor();
    expect(await b.page.getByTestId('message-title').textContent()).toBe('Please look at this client');
    await expect.poll(() => bellCount(b.page)).toBe('0');
    await popup.waitFor({ state: 'detached' });
    await screenshot(b.page, 'messages-message');

    await b.page.getByTestId('message-dossier').click();
    await b.page.waitForURL(`**/contentdossier/${dossier.id}`);
    await b.page.getByTestId('dossier-title').waitFor();
    await b.page.goBack();
    await b.page.getByTestId('message-reply').click();
    const reply = b.page.getByTestId('compose-modal');
    await reply.waitFor();
    expect(await b.page.getByTestId('compose-title').inputValue()).toBe('RE: Please look at this client');
    // an ordinary member chooses no type: pop-ups are not theirs to send
    expect(await b.page.getByTestId('compose-type').count()).toBe(0);
    await reply.locator('.ProseMirror').click();
    await b.page.keyboard.type('Thanks, I will call them.');
    await b.page.getByTestId('compose-send').click();
    await reply.waitFor({ state: 'detached' });

    // A: the reply comes in
    await expect.poll(() => bellCount(a.page), { timeout: 10_000 }).toBe('1');
    await a.page.getByTestId('shell-bell').click();
    const item = a.page.getByTestId('bell-message');
    await item.waitFor();
    expect(await item.textContent()).toContain('RE: Please look at this');
    await screenshot(a.page, 'messages-bell');
    await item.click();
    await a.page.getByTestId('message-page').waitFor();
    expect(await a.page.getByTestId('message-text').textContent()).toContain('Thanks, I will call them.');
    await expect.poll(() => bellCount(a.page)).toBe('0');

    // the inbox lists both ways
    await a.page.goto('/messages?filter=outgoing');
    await a.page.getByTestId('message-row').first().waitFor();
    expect(await a.page.getByTestId('messages-list').textContent()).toContain('Please look at this client');
    await screenshot(a.page, 'messages-outgoing');
    await b.page.goto('/messages');
    await b.page.getByTestId('message-row').first().waitFor();
    await screenshot(b.page, 'messages-inbox');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
