import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CSRF_HEADER, CSRF_VALUE, type Environment, type Paged, type TokenData } from '@dossierbase/core';
import axe from 'axe-core';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  type APIResponse,
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { buildApp } from '../../server/src/app';
import type { Config } from '../../server/src/config';
import type { Db } from '../../server/src/db/database';
import { attachRealtime } from '../../server/src/realtime/socket';
import { seedDemo } from '../../server/src/seed';
import { reservePort } from '../../server/test/free-port';
import { startOidcProvider, type TestOidc } from '../../server/test/oidc';
import { startSmtp, type TestSmtp } from '../../server/test/smtp';
import { createTestDatabase, testConfig } from '../../server/test/test-app';
import { STORAGE_KEYS } from '../src/app/local-store';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const ARTIFACTS = path.join(repoRoot, '.test-artifacts');

export const ADMIN_PASSWORD = 'admin-e2e-password';
export const DEMO_PASSWORD = 'demo-e2e-password';

export interface Stack {
  baseUrl: string;
  app: FastifyInstance;
  db: Db;
  smtp: TestSmtp;
  oidc: TestOidc;
  close(): Promise<void>;
}

/**
 * The whole product on a free local port: the built web client, the API on a fresh database with the
 * demo environment (admin / demo), a real SMTP server and a real OpenID Connect provider as Azure.
 */
export async function startStack(overrides: Partial<Config> = {}): Promise<Stack> {
  const database = await createTestDatabase();
  const smtp = await startSmtp();
  // held until the app listens: seeding takes seconds, in which another scenario's connection could take it
  const reserved = await reservePort();
  const { port } = reserved;
  const baseUrl = `http://127.0.0.1:${port}`;
  const oidc = await startOidcProvider([
    `${baseUrl}/api/connect/azure/check`,
    `${baseUrl}/api/connect/google/check`,
  ]);
  const sso = { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret };
  const config = testConfig({
    port,
    publicUrl: baseUrl,
    smtpUrl: smtp.url,
    // E2E_WEB_DIST: a web build of one's own (helpers that build side by side)
    webDist: process.env.E2E_WEB_DIST ?? path.join(repoRoot, 'packages/web/dist'),
    azure: sso,
    google: sso,
    ...overrides,
  });
  await seedDemo(database.db, { adminPassword: ADMIN_PASSWORD, demoPassword: DEMO_PASSWORD });
  const app = await buildApp({
    config,
    db: database.db,
    jwtSecret: new TextEncoder().encode('e2e-secret-of-enough-length!!!'),
  });
  await attachRealtime(app);
  await reserved.release();
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl,
    app,
    db: database.db,
    smtp,
    oidc,
    async close() {
      await app.close();
      await Promise.all([smtp.close(), oidc.close()]);
      await database.close();
    },
  };
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

let sharedBrowser: Promise<Browser> | null = null;

/**
 * Debian's Chromium, headless, never a downloaded browser: one per test process, started when first
 * asked for (a start cost about a second of CPU, and the suite opened 95 sessions). Each session has
 * a context of its own (cookies, storage and cache apart). Playwright ends it when the process ends.
 */
function browserOfThisProcess(): Promise<Browser> {
  if (!sharedBrowser) {
    const launched = chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    sharedBrowser = launched;
    // a browser that crashed or was closed is started again for the next session
    launched.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (sharedBrowser === launched) sharedBrowser = null;
        }),
      () => {
        if (sharedBrowser === launched) sharedBrowser = null;
      },
    );
  }
  return sharedBrowser;
}

/** A browser session of its own: a fresh context and page of this process's Chromium. */
export async function openBrowser(
  baseUrl: string,
  options: { locale?: string } = {},
): Promise<BrowserSession> {
  const browser = await browserOfThisProcess();
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: options.locale ?? 'en-GB',
    viewport: { width: 1280, height: 800 },
    // no fade-ins: axe measures contrast on the screen as it settles (the theme respects reduced motion)
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  // a refused call in the test's output: a screen that waits in vain is then explained
  page.on('response', (response) => {
    if (response.status() >= 400)
      console.log(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return { browser, context, page, close: () => context.close() };
}

/** Signs in through the login form and waits for the environment page (or wherever it leads). */
export async function signIn(page: Page, username: string, password: string, landing = '**/environment') {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(landing);
}

/**
 * Signs the demo admin in and opens `path` of the Demo environment, as a returning user who is still
 * signed in: the sign-in and the environment's choice go through the API and the client's storage,
 * and the page loads once. A scenario that starts this way does not test those screens; signin.e2e.ts
 * and environments.e2e.ts do. (A session that signed in through the forms and then went to the dossier
 * list cost 6.4 s of machine CPU, median of six; this way 4.6 s.)
 */
export function openDemoAsAdmin(page: Page, baseUrl: string, path = '/') {
  return openDemoAs(page, baseUrl, 'admin', ADMIN_PASSWORD, path);
}

/** The same for another member of the Demo environment. */
export async function openDemoAs(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
  path = '/',
) {
  await signInThroughApi(page, username, password, 'Demo');
  await page.goto(new URL(path, baseUrl).href);
  await page.getByTestId('main-menu').waitFor();
}

/**
 * What the sign-in and environment screens leave behind, without them: the session cookie (the
 * page's request context shares the browser context's cookies) and the token and the chosen
 * environment in the site's localStorage, written in a document of the site that loads no script.
 */
export async function signInThroughApi(
  page: Page,
  username: string,
  password: string,
  environmentName: string,
) {
  const answer = async <T>(response: APIResponse): Promise<T> => {
    if (!response.ok())
      throw new Error(`${response.url()} answered ${response.status()}: ${await response.text()}`);
    return response.json();
  };
  const token = await answer<TokenData>(
    await page.request.post('/api/login_check', {
      data: { username, password },
      headers: { [CSRF_HEADER]: CSRF_VALUE },
    }),
  );
  const found = await answer<Paged<Environment>>(
    await page.request.get('/api/environment', { params: { name: environmentName, limit: 50 } }),
  );
  // by its name, or the one whose name holds it (a scenario may have renamed it, as the card's text)
  const chosen =
    found.results.find((environment) => environment.name === environmentName) ??
    found.results.find((environment) => environment.name.includes(environmentName));
  if (!chosen) throw new Error(`${username} is not a member of an environment named ${environmentName}`);
  const environment = await answer<Environment>(await page.request.get(`/api/environment/${chosen.id}`));
  await page.goto('/api/health');
  await page.evaluate(
    (stored) => {
      for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, JSON.stringify(value));
    },
    { [STORAGE_KEYS.token]: token, [STORAGE_KEYS.environment]: environment },
  );
}

/**
 * A screen the scenario reached: its screenshot, and axe's WCAG 2.1 A and AA check of the page as it
 * is (an open modal included), which fails the scenario on any violation. Every finding is also
 * appended to .test-artifacts/axe-findings.jsonl; E2E_AXE=report records without failing.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await expectAccessible(page, name);
  return file;
}

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core run in the page itself, injected once per document (and frame). Not @axe-core/playwright:
 * it injects into every frame on every check and finishes each run in a new blank page, which made a
 * check two to three times slower (0.7-2.2 s against 0.2-0.7 s on the dossier list).
 */
async function axeViolations(page: Page): Promise<axe.Result[]> {
  for (const frame of page.frames())
    if ((await frame.evaluate('typeof window.axe')) === 'undefined') await frame.evaluate(axe.source);
  // only violations in full: axe then keeps one node per passed rule, a third of its time
  const options = { runOnly: { type: 'tag', values: WCAG_21_AA }, resultTypes: ['violations'] };
  return page.evaluate(`axe.run(document, ${JSON.stringify(options)}).then((r) => r.violations)`);
}

export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length === 0) return;
  const findings = violations.map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.join(' '),
      summary: n.failureSummary,
      html: n.html.slice(0, 200),
    })),
  }));
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const finding of findings)
    appendFileSync(path.join(ARTIFACTS, 'axe-findings.jsonl'), `${JSON.stringify(finding)}\n`);
  if (process.env.E2E_AXE === 'report') return;
  const lines = findings.flatMap((f) => [
    `${f.rule} (${f.impact}): ${f.help}`,
    ...f.nodes.slice(0, 5).map((n) => `  ${n.target}: ${n.summary?.split('\n').slice(1).join(' ').trim()}`),
  ]);
  throw new Error(
    `axe: ${findings.length} WCAG 2.1 AA violations on screen '${screen}':\n${lines.join('\n')}`,
  );
}

/** The href of every link the selector finds. */
export const hrefsOf = async (page: Page, selector: string) =>
  (
    await page.locator(selector).evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  ).filter((href): href is string => href !== null);

/** Whether the element that has the focus matches `selector`. */
export const hasFocus = (page: Page, selector: string) =>
  page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/** Presses Tab until the element matching `selector` has the focus (it must be reachable by Tab). */
export async function tabTo(page: Page, selector: string, limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await hasFocus(page, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * Opens a dropdown with `opener` and clicks its option `name`. Under load a dropdown that grew when
 * its options arrived was sometimes left hidden (floating-ui hides a dropdown whose input it thinks
 * scrolled away); the user then clicks the input again, and so does this.
 */
export async function chooseOption(page: Page, opener: Locator, name: string, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    await opener.scrollIntoViewIfNeeded();
    await opener.click();
    try {
      await page.getByRole('option', { name, exact: true }).click({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** A client of the demo records (seedDemoRecords): the first, or the newest. */
export async function demoClient(db: Db, which: 'first' | 'newest' = 'first') {
  const row = await db
    .selectFrom('content_dossier as d')
    .innerJoin('def_dossier as e', 'e.id', 'd.def_dossier_id')
    .select(['d.id', 'd.summary'])
    .where(sql<boolean>`e.translations @> ${JSON.stringify([{ name_singular: 'Client' }])}::jsonb`)
    .orderBy('d.id', which === 'first' ? 'asc' : 'desc')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), summary: row.summary };
}
