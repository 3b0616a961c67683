import { FIELD_TYPE_NAMES } from '@dossierbase/core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildDisplayItem } from '../test/entity-factories';
import {
  HOSTILE_PATH_SEGMENTS,
  hostileValue,
  type JsonSchema,
  plausible,
  type Random,
  REFUSED_TEXT,
  replaceSomewhere,
  seededRandom,
} from '../test/fuzz';
import { createTestAppWithMail, type MailTestApp, TestClient } from '../test/test-app';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth/session';
import { INPUT_MESSAGES } from './input-guard';
import {
  addField,
  type DossierSetup,
  dossierSetup,
  insertDossier,
} from './resources/content-dossier/fixture';

// Fuzz test over every route's input schema (issue 12). The routes and their schemas come from the
// app's own OpenAPI document, so a route added later is fuzzed without touching this file.
//
// Phase 1 sends requests that must be refused (each carries at least one input no route may accept:
// a NUL or lone surrogate, an id that is not one, a body of the wrong kind, broken JSON, a missing
// CSRF header): every answer is 4xx and the database stays as it was, checked per batch.
// Phase 2 sends plausible requests with hostile values mixed in: nothing may answer 5xx; a batch whose
// writes were all refused must leave the database as it was too.
// No answer, in either phase, may carry a stack trace or a database error.

/** Fixed, so a failure repeats; FUZZ_SEED=<n> explores other inputs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const REFUSED_PER_ROUTE = 10;
const OPEN_PER_ROUTE = 20;
const BATCH = 20;
/** Stop early rather than overrun CI on a slow machine; the summary line says how many ran. */
const BUDGET_MS = 85_000;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Signing out would end the admin's session for the rest of the run: those go anonymously. */
const ANONYMOUS_ONLY = new Set(['/api/logout_cookie']);
/**
 * Tables of sessions, sign-in and activity bookkeeping change with any request (a member's first call
 * of the day is noted even when refused); the rest must not when refused.
 */
const UNCHECKED_TABLES = new Set([
  'user_session',
  'refresh_token',
  'login_attempt',
  'sign_in',
  'member_activity_day',
  // derived from the dossiers: a block's read earns its rollup (resources/dashboard/rollups.ts)
  'dashboard_rollup',
  'dashboard_rollup_delta',
  'kysely_migration',
  'kysely_migration_lock',
]);

interface RequestBody {
  required?: boolean;
  content?: Record<string, { schema?: JsonSchema }>;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
  bodyRequired: boolean;
}

interface FuzzRequest {
  /** The operation, as `METHOD /path/{param}` */
  route: string;
  options: InjectOptions;
  anonymous: boolean;
  /** Cookies of an anonymous caller: forged or broken session cookies */
  cookies?: Record<string, string>;
  label: string;
}

const LEAKS: [RegExp, string][] = [
  [/\bat [^\n"]*\.(?:ts|js|mjs|cjs):\d+/, 'stack frame'],
  [/node_modules/, 'stack frame'],
  [/\berror:/i, 'database error text'],
  [/syntax error/i, 'SQL syntax error'],
  [/violates/i, 'constraint violation text'],
  [/\brelation\b/i, 'relation name'],
  [/SQLSTATE|"code"\s*:\s*"[0-9A-Z]{5}"/, 'PostgreSQL error code'],
  [/invalid input syntax|out of range for type|unsupported Unicode|duplicate key/i, 'database error text'],
];
const BACKSTOP_ANSWER = JSON.stringify({ errors: { body: INPUT_MESSAGES.unstorable } });
/** PostgreSQL error codes by themselves, looked for in refusals only (a record may hold such a number). */
const ERROR_CODE = /\b(?:08|22|23|25|40|42|53|54|55|57|58|XX)[0-9A-Z]{3}\b/;

let t: MailTestApp;
let s: DossierSetup;
let admin: TestClient;
let dossierId: number;
let operations: Operation[];
const everyTypeItems: number[] = [];

beforeAll(async () => {
  // invitations send mail
  t = await createTestAppWithMail();
  s = await dossierSetup(t);
  admin = s.admin;
  dossierId = Number(await insertDossier(t, s.client, 'Fuzz target', {}));
  // One field of every type, shown on the detail page and in the list and search views, so that
  // values and list filters reach every type's normalisation and SQL.
  for (const type of FIELD_TYPE_NAMES) {
    const { dataField, item } = await addField(t, s.client, s.main.id, type, `fuzz_${type}`);
    everyTypeItems.push(item.id);
    for (const view of ['list', 'advanced-search']) {
      everyTypeItems.push((await buildDisplayItem(t.db, s.client, { dataFieldId: dataField.id, view })).id);
    }
  }
  operations = readOperations();
}, 120_000);
afterAll(() => t?.close());

/** Every operation of the app's OpenAPI document. */
function readOperations(): Operation[] {
  const document = t.app.swagger() as {
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: RequestBody }>>;
  };
  const found: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(byMethod)) {
      if (!METHODS.has(method.toUpperCase())) continue;
      const body = operation.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
      found.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body,
        bodyRequired: Boolean(operation.requestBody?.required),
      });
    }
  }
  return found;
}

// ---------- ids of the seeded environment, so that plausible requests reach past the lookups

/** The seeded row a path's `{id}` names, by resource. */
function pathId(path: string, name: string): number | undefined {
  const f = s.fields;
  if (name === 'dossierId') return dossierId;
  if (name === 'displayItemId') return f.list.item.id;
  if (name === 'optionId') return s.options.red.id;
  if (name === 'userId') return s.memberId;
  if (name !== 'id') return undefined;
  const resource = path.split('/')[2];
  const byResource: Record<string, number> = {
    deffield: f.name.base.id,
    deffieldlist: s.options.blue.id,
    defdossier: s.client.id,
    role: s.role.id,
    defdossierdeffield: f.notes.dataField.id,
    defdossierlink: s.links.lead.id,
    displayposition: s.tab.id,
    displayitem: f.extra.item.id,
    environment: s.environment.id,
    contentdossier: dossierId,
    user: s.memberId,
  };
  return byResource[resource] ?? 1;
}

function idsFor(path: string) {
  const byName: Record<string, number> = {
    environment: s.environment.id,
    defDossier: s.client.id,
    childDefDossier: s.project.id,
    child_def_dossier_id: s.project.id,
    defField: s.fields.list.base.id,
    defDossierDefField: s.fields.notes.dataField.id,
    defDossierLink: s.links.projects.id,
    linkId: s.links.projects.id,
    back_link_id: s.links.projects.id,
    displayPosition: s.main.id,
    role: s.role.id,
    roles: s.role.id,
    visibility_roles: s.role.id,
    embedded: Number(s.projectsDossiers[0]),
    dossier: dossierId,
    ids: dossierId,
    values: s.options.red.id,
  };
  return (name: string) => (name === 'id' ? pathId(path, 'id') : byName[name]);
}

/** Dossier values keyed by display item id: plausible per field type, or hostile. */
function dossierValues(random: Random): Record<string, unknown> {
  const f = s.fields;
  const plausibleByItem: [number, unknown][] = [
    [f.name.item.id, `Fuzz ${random.int(1_000_000)}`],
    [f.notes.item.id, 'Some notes'],
    [f.amount.item.id, 12.5],
    [f.date.item.id, '2024-01-31'],
    [f.list.item.id, s.options.red.id],
    [f.user.item.id, s.memberId],
    [f.email.item.id, 'someone@example.com'],
    [f.url.item.id, 'https://example.com'],
    [f.auto.item.id, null],
    [f.calc.item.id, 1],
    [f.extra.item.id, 'extra'],
    [s.links.projectsItem.id, [Number(s.projectsDossiers[0])]],
    [s.links.leadItem.id, Number(s.projectsDossiers[1])],
  ];
  for (const id of everyTypeItems)
    plausibleByItem.push([id, random.pick([1, 'x', [1], '2024-01-31', '12:30'])]);
  const values: Record<string, unknown> = {};
  for (let i = 0; i < 1 + random.int(4); i++) {
    const [id, value] = random.pick(plausibleByItem);
    values[String(id)] = random.chance(0.6) ? hostileValue(random) : value;
  }
  return values;
}

/** Column filters of the dossier list ({id}, {id}_type, {id}_min ...), which its schema leaves open. */
function listFilters(random: Random): Record<string, string> {
  const items = [...Object.values(s.fields).map((field) => field.item.id), ...everyTypeItems];
  const filters: Record<string, string> = {};
  for (let i = 0; i < random.int(4); i++) {
    const suffix = random.pick(['', '_type', '_end', '_min', '_max', '_aggregate']);
    const value = random.chance(0.5)
      ? random.pick(['on', 'between', 'before', 'sum', 'avg', '2024-01-01', '12', 'EMPTY', 'Red'])
      : String(hostileValue(random));
    filters[`${random.pick(items)}${suffix}`] = value.slice(0, 5000);
  }
  return filters;
}

// ---------- building requests

const NUL_TEXT = REFUSED_TEXT.filter((text) => text.includes('\u0000'));

const asText = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);

function buildRequest(operation: Operation, random: Random, mode: 'refused' | 'open'): FuzzRequest {
  const ids = idsFor(operation.path);
  const hostile = mode === 'open' ? 0.3 : 0.2;
  // path: a real id, a plausible value, or a hostile segment (already percent-encoded)
  const segments: Record<string, string> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const real = pathId(operation.path, parameter.name);
    const value = random.chance(hostile)
      ? random.pick(HOSTILE_PATH_SEGMENTS)
      : encodeURIComponent(asText(real ?? plausible(parameter.schema, parameter.name, random, ids)));
    segments[parameter.name] = value;
  }
  // query: the declared parameters, sometimes hostile, sometimes repeated; list filters on the list
  const query: [string, string][] = [];
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    if (!parameter.required && random.chance(0.4)) continue;
    const value = random.chance(hostile)
      ? hostileValue(random)
      : plausible(parameter.schema, parameter.name, random, ids);
    const values = Array.isArray(value) ? value.slice(0, 50) : [value];
    for (const one of values) query.push([parameter.name, asText(one).slice(0, 20_000)]);
  }
  if (
    (operation.path === '/api/contentdossier' || operation.path === '/api/contentdossier/export/csv') &&
    operation.method === 'GET'
  ) {
    query.push(...Object.entries(listFilters(random)));
  }
  // body: plausible from the schema, then hostile values in one to three places
  let body: unknown;
  let rawBody: string | undefined;
  if (operation.body) {
    body = plausible(operation.body, 'body', random, ids);
    if (operation.path.startsWith('/api/contentdossier') && body && typeof body === 'object') {
      (body as Record<string, unknown>).values = dossierValues(random);
    }
    if (random.chance(mode === 'open' ? 0.6 : 0.3)) {
      for (let i = 0; i <= random.int(3); i++) body = replaceSomewhere(body, hostileValue(random), random);
    }
  }
  let csrf = true;
  let anonymous = ANONYMOUS_ONLY.has(operation.path) || random.chance(0.2);
  const cookies = random.chance(0.3) ? hostileCookies(random) : undefined;

  const refusedBy = mode === 'refused' ? refusal(operation, random) : null;
  switch (refusedBy) {
    case 'text-in-body':
      body = replaceSomewhere(body, random.pick(REFUSED_TEXT), random);
      break;
    case 'text-in-query':
      // (a lone surrogate cannot travel in a URL: encoding makes it U+FFFD, so NUL only here)
      query.push([random.pick([...query.map(([name]) => name), 'q']), random.pick(NUL_TEXT)]);
      break;
    case 'path-id': {
      segments[random.pick(idParameters(operation))] = random.pick(HOSTILE_PATH_SEGMENTS);
      break;
    }
    case 'body-kind':
      body = random.pick([null, [], 'text', 12, true, [{}]]);
      break;
    case 'broken-json':
      rawBody = random.pick(['{"a":', '{"__proto__":{"polluted":1}}', 'nul', '{"a":1}}', '\u0000']);
      break;
    case 'no-csrf':
      csrf = false;
      break;
  }
  if (refusedBy !== null && random.chance(0.3)) anonymous = true;

  let url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? '1');
  if (url.includes('{*}') || url.endsWith('/*')) url = url.replace(/\{\*\}|\*$/, randomTail(random));
  const search = new URLSearchParams(query).toString();
  const headers: Record<string, string> = {};
  const options: InjectOptions = {
    method: operation.method as InjectOptions['method'],
    url: search ? `${url}?${search}` : url,
    headers,
  };
  if (rawBody !== undefined) {
    options.payload = rawBody;
    headers['content-type'] = 'application/json';
  } else if (operation.body !== undefined && UNSAFE.has(operation.method)) {
    options.payload = JSON.stringify(body);
    headers['content-type'] = mode === 'open' && random.chance(0.03) ? 'text/plain' : 'application/json';
  }
  if (!csrf) headers['x-fuzz-no-csrf'] = '1';
  return {
    route: `${operation.method} ${operation.path}`,
    options,
    anonymous,
    cookies: anonymous ? cookies : undefined,
    label: `${options.method} ${String(options.url).slice(0, 300)} ${refusedBy ?? ''}${anonymous ? ' (anonymous)' : ''}`,
  };
}

/** Path parameters that hold ids: none of the hostile segments is one ('0' is a valid flag, not an id). */
const idParameters = (operation: Operation) =>
  operation.parameters
    .filter((p) => p.in === 'path' && p.name !== '*' && !p.schema.enum && p.name !== 'token')
    .map((p) => p.name);

/** What makes a phase-1 request certainly refused, among what the operation offers. */
function refusal(operation: Operation, random: Random) {
  const choices: string[] = ['text-in-query'];
  if (operation.body) choices.push('text-in-body', 'text-in-body');
  if (operation.body && operation.bodyRequired) choices.push('body-kind', 'broken-json');
  if (idParameters(operation).length) choices.push('path-id', 'path-id');
  if (UNSAFE.has(operation.method)) choices.push('no-csrf');
  return random.pick(choices);
}

const FORGED_TOKENS = [
  '%ZZ',
  '%E0%A4%A',
  '%',
  'a'.repeat(8000),
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwic2lkIjoiOTk5OTk5OTk5OTkifQ.',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiItMSJ9.AAAA',
  "'%20or%201=1--",
  '..%2F..%2Fetc%2Fpasswd',
];

function hostileCookies(random: Random): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (random.chance(0.7)) cookies[ACCESS_COOKIE] = random.pick(FORGED_TOKENS);
  if (random.chance(0.5)) cookies[REFRESH_COOKIE] = random.pick(FORGED_TOKENS);
  if (random.chance(0.2)) cookies.dossierbase_oidc = random.pick(['%ZZ', '{"provider":1}', 'null', '[]']);
  return cookies;
}

function randomTail(random: Random) {
  return random.pick([
    '..%2f..%2fetc%2fpasswd',
    'nope',
    '%61pi/deffield/1',
    '%00',
    'a/b/c',
    '%ZZ',
    'x'.repeat(2000),
  ]);
}

// ---------- sending and checking

async function send(request: FuzzRequest): Promise<LightMyRequestResponse> {
  const client = request.anonymous ? new TestClient(t.app) : admin;
  for (const [name, value] of Object.entries(request.cookies ?? {})) client.cookies.set(name, value);
  const headers = { ...(request.options.headers as Record<string, string>) };
  const noCsrf = headers['x-fuzz-no-csrf'] === '1';
  delete headers['x-fuzz-no-csrf'];
  client.csrf = !noCsrf;
  try {
    return await client.request({ ...request.options, headers, remoteAddress: '10.77.0.1' });
  } finally {
    client.csrf = true;
  }
}

/** Rows of every table but the session bookkeeping, as count and md5 of their text (one statement). */
async function databaseChecksum(): Promise<Map<string, string>> {
  if (!checksumStatement) {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(t.db);
    const parts = tables.rows
      .filter(({ name }) => !UNCHECKED_TABLES.has(name))
      .map(
        // A GET of a dossier writes its 'shown' log entry by design (spec: log type shown); only
        // the other entries are changes a refused request must not make.
        ({ name }) => sql`select ${name} as name,
          count(*) || ':' || coalesce(md5(string_agg(r::text, '|' order by r::text)), '') as sum
          from ${sql.table(name)} r
          ${name.startsWith('dossier_log') ? sql`where r.type <> 'shown'` : sql``}`,
      );
    checksumStatement = sql<{ name: string; sum: string }>`${sql.join(parts, sql` union all `)}`;
  }
  const { rows } = await checksumStatement.execute(t.db);
  return new Map(rows.map((row) => [row.name, row.sum]));
}
let checksumStatement: ReturnType<typeof sql<{ name: string; sum: string }>> | undefined;

const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([name, sum]) => before.get(name) !== sum).map(([name]) => name);

interface Tally {
  sent: number;
  byClass: Record<string, number>;
  /** One example per route and kind of problem. */
  failures: Map<string, string>;
}

function check(request: FuzzRequest, response: LightMyRequestResponse, mustRefuse: boolean, tally: Tally) {
  tally.sent += 1;
  const statusClass = `${Math.floor(response.statusCode / 100)}xx`;
  tally.byClass[statusClass] = (tally.byClass[statusClass] ?? 0) + 1;
  const problems: string[] = [];
  if (response.statusCode >= 500) problems.push(`answered ${response.statusCode}`);
  if (mustRefuse && (response.statusCode < 400 || response.statusCode >= 500)) {
    problems.push(`not refused: ${response.statusCode}`);
  }
  const text = response.body.slice(0, 200_000);
  for (const [pattern, what] of LEAKS) if (pattern.test(text)) problems.push(`answer carries a ${what}`);
  if (response.statusCode >= 400 && ERROR_CODE.test(text)) problems.push('answer carries an error code');
  // The error handler's last resort for a value the database refused: reaching it is a bug to fix
  // where the value came in (its schema or the shared rules), so that the answer names the field.
  if (text === BACKSTOP_ANSWER) problems.push('the database refused a value the schema let through');
  for (const problem of problems) {
    const kind = `${request.route}: ${problem.replace(/\d{3}$/, 'status')}`;
    if (!tally.failures.has(kind))
      tally.failures.set(kind, `${request.label} -> ${response.body.slice(0, 400)}`);
  }
}

/**
 * Sends the batch in order; when every write in it was refused, the database must be as it was.
 * `before` is the checksum the batch starts from; answers the one the next batch starts from.
 */
async function runBatch(
  batch: FuzzRequest[],
  mustRefuse: boolean,
  tally: Tally,
  before: Map<string, string>,
) {
  let wrote = false;
  for (const request of batch) {
    const response = await send(request);
    check(request, response, mustRefuse, tally);
    if (UNSAFE.has(String(request.options.method)) && response.statusCode < 400) wrote = true;
  }
  const after = await databaseChecksum();
  const changed = wrote ? [] : changedTables(before, after);
  if (changed.length) {
    tally.failures.set(
      `refused requests changed ${changed.join(', ')}`,
      batch.map((r) => r.label).join('\n  '),
    );
  }
  return after;
}

test('fuzzing every route: no 5xx, no stack or database error in any answer, refused calls change nothing', async () => {
  const random = seededRandom(SEED);
  const started = Date.now();
  expect(operations.length).toBeGreaterThan(80);
  const tally: Tally = { sent: 0, byClass: {}, failures: new Map() };

  const phases: { requests: FuzzRequest[]; mustRefuse: boolean; until: number; sent: number }[] = [];
  // Round by round over every operation, so that a run cut short by the time budget still covered
  // each of them; deletes last, so the seeded rows stay for the other requests as long as possible.
  const rounds = (count: number, mode: 'refused' | 'open') =>
    Array.from({ length: count }, () =>
      operations.map((operation) => buildRequest(operation, random, mode)),
    ).flat();
  const refused = rounds(REFUSED_PER_ROUTE, 'refused');
  const open = rounds(OPEN_PER_ROUTE, 'open').sort(
    (a, b) => Number(a.options.method === 'DELETE') - Number(b.options.method === 'DELETE'),
  );
  // the refused phase may take 40% of the time budget, the open phase the rest
  phases.push(
    { requests: refused, mustRefuse: true, until: started + BUDGET_MS * 0.4, sent: 0 },
    { requests: open, mustRefuse: false, until: started + BUDGET_MS, sent: 0 },
  );

  let stoppedEarly = false;
  let checksum = await databaseChecksum();
  for (const phase of phases) {
    for (let i = 0; i < phase.requests.length; i += BATCH) {
      if (Date.now() > phase.until) {
        stoppedEarly = true;
        break;
      }
      const batch = phase.requests.slice(i, i + BATCH);
      checksum = await runBatch(batch, phase.mustRefuse, tally, checksum);
      phase.sent += batch.length;
    }
  }

  const classes = Object.entries(tally.byClass)
    .sort()
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
  console.log(
    `fuzz (seed ${SEED}): ${tally.sent} requests over ${operations.length} operations ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s${stoppedEarly ? ' (time budget reached)' : ''}: ${classes}`,
  );
  for (const [kind, example] of tally.failures) console.log(`${kind}\n  e.g. ${example}`);
  expect([...tally.failures.keys()]).toEqual([]);
  // even a run cut short by the budget sent every operation a few times in each phase
  for (const phase of phases) expect(phase.sent).toBeGreaterThanOrEqual(operations.length * 3);
}, 150_000);
