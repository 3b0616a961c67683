import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { seedDemoRecords } from '../../server/src/seed-records';
import {
  DEMO_PASSWORD,
  openBrowser,
  openDemoAsAdmin,
  type Stack,
  screenshot,
  signIn,
  startStack,
} from './harness';

// Realtime and presence (issue 19, points 6 and 7): two browsers as two users of the Demo environment.
// The demo user (B) looks at the Client list; the admin (A) creates a client. B's list shows it without
// a reload, highlighted, with the toast 'Another user created an item'. Both then have the new client
// open and each sees the other's avatar on it; when A leaves, B sees A go. A third browser whose
// socket cannot connect gets 'Error managing socket connection'.

let stack: Stack;
let clientEntity: number;

beforeAll(async () => {
  stack = await startStack();
  await seedDemoRecords(stack.db);
  const row = await stack.db
    .selectFrom('def_dossier')
    .select('id')
    .where(sql<boolean>`translations @> ${JSON.stringify([{ name_singular: 'Client' }])}::jsonb`)
    .executeTakeFirstOrThrow();
  clientEntity = row.id;
}, 120_000);
afterAll(() => stack?.close());

const viewerIds = (page: Page) =>
  page
    .getByTestId('dossier-viewer')
    .evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-user-id'))));

test('a dossier another user creates appears highlighted in the list, and both see each other on it', async () => {
  const a = await openBrowser(stack.baseUrl);
  const b = await openBrowser(stack.baseUrl);
  for (const s of [a, b]) s.page.on('pageerror', (error) => console.error('page error:', error.message));
  try {
    const ids = await stack.db
      .selectFrom('app_user')
      .select(['id', 'username'])
      .where('username', 'in', ['admin', 'demo'])
      .execute();
    const adminId = ids.find((u) => u.username === 'admin')?.id;
    const demoId = ids.find((u) => u.username === 'demo')?.id;

    // B: the Client list
    await signIn(b.page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await b.page.getByTestId('main-menu').waitFor();
    await b.page.goto(`/defdossier/${clientEntity}`);
    await b.page.getByTestId('dossier-table').waitFor();
    const rowsBefore = await b.page.getByTestId('dossier-row').count();
    expect(rowsBefore).toBeGreaterThan(0);

    const nameItem = await stack.db
      .selectFrom('display_item as i')
      .innerJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
      .select('i.id')
      .where('i.def_dossier_id', '=', clientEntity)
      .where('i.view', '=', 'show/edit')
      .where('d.name', '=', 'Name')
      .executeTakeFirstOrThrow();

    // A: a new client through the create page
    await openDemoAsAdmin(a.page, stack.baseUrl, `/contentdossier/create/${clientEntity}`);
    await a.page.getByTestId('dossier-create-page').waitFor();
    const name = a.page.getByTestId(`dossier-item-${nameItem.id}`).locator('input').first();
    await name.fill('Realtime Example');
    await name.blur();
    await a.page.getByTestId('dossier-add').click();
    await a.page.waitForURL(/\/contentdossier\/\d+$/);
    await a.page.getByTestId('dossier-detail-page').waitFor();
    const id = Number(new URL(a.page.url()).pathname.split('/').pop());

    // B, without a reload: the row is there, highlighted, and the toast says why
    const row = b.page.locator(`[data-testid="dossier-row"][data-dossier-id="${id}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute('data-highlighted')).toBe('true');
    expect(await row.getByTestId('dossier-new-badge').textContent()).toBe('New');
    expect(await row.textContent()).toContain('Realtime Example');
    const toast = b.page.getByTestId('notification-created-by-other');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Another user created an item');
    expect(await b.page.getByTestId('dossier-row').count()).toBe(rowsBefore + 1);
    // the page was not reloaded: the list kept its rows and the socket its room
    expect(await b.page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
    await screenshot(b.page, 'realtime-list-highlight');

    // B opens it by keyboard; A has it open already: each sees the other
    await row.focus();
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(`**/contentdossier/${id}`);
    await b.page.getByTestId('dossier-detail-page').waitFor();
    await expect.poll(() => viewerIds(b.page), { timeout: 10_000 }).toEqual([adminId]);
    await expect.poll(() => viewerIds(a.page), { timeout: 10_000 }).toEqual([demoId]);
    expect(await a.page.getByTestId('dossier-viewers').getAttribute('aria-label')).toContain('Demo');
    await screenshot(a.page, 'realtime-presence-admin');
    await screenshot(b.page, 'realtime-presence-demo');

    // A leaves the dossier: B no longer sees A
    await a.page.goto('/');
    await a.page.getByTestId('main-menu').waitFor();
    await expect.poll(() => viewerIds(b.page), { timeout: 10_000 }).toEqual([]);
    await b.page.getByTestId('dossier-viewers').waitFor({ state: 'detached' });

    // A changes the client B has open: B's page shows the new title without a reload
    const changed = await a.page.evaluate(
      async ({ id, item, header, value }) => {
        const response = await fetch(`/api/contentdossier/${id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', [header]: value },
          body: JSON.stringify({ values: { [item]: 'Realtime Renamed' }, ignore_existing: false }),
        });
        return response.status;
      },
      { id, item: nameItem.id, header: CSRF_HEADER, value: CSRF_VALUE },
    );
    expect(changed).toBe(200);
    await b.page.getByTestId('dossier-title').getByText('Realtime Renamed').waitFor({ timeout: 10_000 });
  } finally {
    await a.close();
    await b.close();
  }
});

test("a socket that cannot connect shows 'Error managing socket connection'", async () => {
  const c = await openBrowser(stack.baseUrl);
  try {
    // the socket's WebSocket answers what is no engine.io packet (a broken proxy), and its
    // long-polling fallback an error
    await c.context.routeWebSocket(/\/socket\.io\//, (ws) => ws.send('not a packet'));
    await c.context.route(/\/socket\.io\//, (route) => route.fulfill({ status: 503, body: 'down' }));
    await signIn(c.page, 'demo', DEMO_PASSWORD, `${stack.baseUrl}/`);
    await c.page.getByTestId('main-menu').waitFor();
    const toast = c.page.getByTestId('notification-socket-error');
    await toast.waitFor({ timeout: 15_000 });
    expect(await toast.textContent()).toContain('Error managing socket connection');
    // one toast, however often socket.io tries again
    await c.page.waitForTimeout(3000);
    expect(await c.page.getByTestId('notification-socket-error').count()).toBe(1);
    await screenshot(c.page, 'realtime-socket-error');
  } finally {
    await c.close();
  }
});
