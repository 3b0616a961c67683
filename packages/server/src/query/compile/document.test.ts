import {
  type Combinator,
  type FieldCondition,
  type LinkCondition,
  queryDocumentSchema,
} from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import {
  type DossierSetup,
  dossierSetup,
  insertDossier,
  linkDossiers,
} from '../../resources/content-dossier/fixture';
import { type Column, columnOf } from './columns';
import { QueryCompileError } from './conditions';
import { type CompileContext, compileDocument, type EntityScope } from './document';

// Every operator of the query model on every field type, against five dossiers whose expected ids are
// written out by hand. "Today" is fixed at 2026-11-25 (Amsterdam) so the relative dates are stable.

let t: TestApp;
let c: DossierSetup;
let scope: EntityScope;
let ctx: CompileContext;
const d: Record<string, number> = {};
const OTHER_USER = 999_999;

beforeAll(async () => {
  t = await createTestApp();
  c = await dossierSetup(t);
  const f = c.fields;
  const v = (field: { dataField: { id: number } }) => String(field.dataField.id);
  const rows: [string, Record<string, unknown>][] = [
    [
      'd1',
      {
        [v(f.email)]: 'anna@example.test',
        [v(f.url)]: 'https://anna.example',
        [v(f.auto)]: 7,
        [v(f.calc)]: 20,
        [v(f.name)]: 'Anna',
        [v(f.amount)]: 10,
        [v(f.date)]: '1990-11-28',
        [v(f.list)]: c.options.red.id,
        [v(f.user)]: c.memberId,
        [v(f.notes)]: 'x',
      },
    ],
    [
      'd2',
      {
        [v(f.email)]: 'bert@example.org',
        [v(f.auto)]: 8,
        [v(f.calc)]: 41,
        [v(f.name)]: 'Bert',
        [v(f.amount)]: 20.5,
        [v(f.date)]: '2026-11-25',
        [v(f.list)]: c.options.blue.id,
        [v(f.user)]: OTHER_USER,
        [v(f.notes)]: '',
      },
    ],
    [
      'd3',
      { [v(f.name)]: 'anneke', [v(f.amount)]: -3, [v(f.date)]: '2026-12-01', [v(f.list)]: c.options.red.id },
    ],
    ['d4', { [v(f.name)]: '' }],
    [
      'd5',
      {
        [v(f.amount)]: 100,
        [v(f.date)]: '2026-11-10',
        [v(f.list)]: c.options.blue.id,
        [v(f.user)]: c.memberId,
      },
    ],
  ];
  for (const [name, values] of rows) d[name] = await insertDossier(t, c.client, name, values);
  // d1 is linked to project Alpha, d2 to Alpha and Beta through "projects"
  const [alpha, beta] = c.projectsDossiers;
  await linkDossiers(t, c.environment.id, c.links.projects.id, [
    [d.d1, alpha],
    [d.d2, alpha],
    [d.d2, beta],
  ]);

  const fields = new Map<number, Column>();
  for (const field of Object.values(f)) {
    const column = columnOf({ item: field.item, field: field.base, dataField: field.dataField, link: null });
    if (column) fields.set(field.dataField.id, column);
  }
  scope = {
    defDossierId: c.client.id,
    fields,
    links: new Map([[c.links.projects.id, c.links.projects]]),
    summaryKey: undefined,
  };
  const project: EntityScope = {
    defDossierId: c.project.id,
    fields: new Map(),
    links: new Map(),
    summaryKey: undefined,
  };
  ctx = {
    environmentId: c.environment.id,
    userId: c.memberId,
    today: { year: 2026, month: 11, day: 25 },
    entities: new Map([[c.project.id, project]]),
    queries: new Map(),
  };
});
afterAll(() => t.close());

const group = (over: Partial<Combinator>): Combinator => ({
  combine: 'AND',
  fields: [],
  links: [],
  combinators: [],
  ...over,
});

async function matching(combinators: Combinator[]): Promise<string[]> {
  const document = queryDocumentSchema.parse({ combinators, include_archived: 'both' });
  const rows = await t.db
    .selectFrom('content_dossier')
    .select(['id', 'summary'])
    .where('environment_id', '=', c.environment.id)
    .where('def_dossier_id', '=', c.client.id)
    .where(compileDocument(document, scope, ctx))
    .orderBy('summary')
    .execute();
  return rows.map((r) => r.summary);
}
const where = (field: { dataField: { id: number } } | FieldCondition['id'], type: string, value?: unknown) =>
  matching([
    group({
      fields: [{ id: typeof field === 'object' ? field.dataField.id : field, type, value } as FieldCondition],
    }),
  ]);

describe('query compiler: every operator on a fixed data set', () => {
  it('text operators', async () => {
    const { name } = c.fields;
    expect(await where(name, 'string_empty')).toEqual(['d4', 'd5']);
    expect(await where(name, 'string_is_not_empty')).toEqual(['d1', 'd2', 'd3']);
    expect(await where(name, 'string_exact_equals', 'Anna')).toEqual(['d1']);
    expect(await where(name, 'string_exact_not_equals', 'Anna')).toEqual(['d2', 'd3', 'd4', 'd5']);
    expect(await where(name, 'string_like_equals', 'ann')).toEqual(['d1', 'd3']);
    expect(await where(name, 'string_not_like_equals', 'ann')).toEqual(['d2', 'd4', 'd5']);
    expect(await where(name, 'string_like_equals', "%'; drop table x; --")).toEqual([]);
  });

  it('number operators (amount), text that is not a number never matches a number', async () => {
    const { amount, name } = c.fields;
    expect(await where(amount, 'number_equals', 20.5)).toEqual(['d2']);
    expect(await where(amount, 'number_not_equals', 10)).toEqual(['d2', 'd3', 'd4', 'd5']);
    expect(await where(amount, 'number_gt', 10)).toEqual(['d2', 'd5']);
    expect(await where(amount, 'number_gte', 10)).toEqual(['d1', 'd2', 'd5']);
    expect(await where(amount, 'number_lt', 10)).toEqual(['d3']);
    expect(await where(amount, 'number_lte', '10')).toEqual(['d1', 'd3']);
    expect(await where(amount, 'string_empty')).toEqual(['d4']);
    expect(await where(name, 'number_gt', 0)).toEqual([]);
  });

  it('date operators, absolute and relative to today (2026-11-25)', async () => {
    const { date } = c.fields;
    expect(await where(date, 'equals', '2026-11-25')).toEqual(['d2']);
    expect(await where(date, 'not_equals', '2026-11-25')).toEqual(['d1', 'd3', 'd4', 'd5']);
    expect(await where(date, 'equals', 'NULL')).toEqual(['d4']);
    expect(await where(date, 'equals', 'NOT NULL')).toEqual(['d1', 'd2', 'd3', 'd5']);
    expect(await where(date, 'date_gt', '2026-11-25')).toEqual(['d3']);
    expect(await where(date, 'date_gte', '2026-11-25')).toEqual(['d2', 'd3']);
    expect(await where(date, 'date_lt', '2026-11-25')).toEqual(['d1', 'd5']);
    expect(await where(date, 'date_lte', '2026-11-25')).toEqual(['d1', 'd2', 'd5']);
    expect(await where(date, 'date_between', '2026-11-01,2026-11-30')).toEqual(['d2', 'd5']);
    // within the next 7 days / 7 days or more ahead
    expect(await where(date, 'date_add_max_days', 7)).toEqual(['d2', 'd3']);
    expect(await where(date, 'date_add_min_days', 7)).toEqual([]);
    expect(await where(date, 'date_add_min_days', 6)).toEqual(['d3']);
    expect(await where(date, 'date_add_max_weeks', 1)).toEqual(['d2', 'd3']);
    expect(await where(date, 'date_add_max_days_to_go', 3)).toEqual(['d2']);
    // within the last 15 days / 15 days ago or longer
    expect(await where(date, 'date_subtract_max_days', 15)).toEqual(['d2', 'd5']);
    expect(await where(date, 'date_subtract_min_days', 15)).toEqual(['d1', 'd5']);
    expect(await where(date, 'date_subtract_min_months', 1)).toEqual(['d1']);
    expect(await where(date, 'date_subtract_max_years', 40)).toEqual(['d1', 'd2', 'd5']);
    expect(await where(date, 'between_days', '1,10')).toEqual(['d3']);
    expect(await where(date, 'between_weeks', '0,1')).toEqual(['d2', 'd3']);
    expect(await where(date, 'between_months', '0,1')).toEqual(['d2', 'd3']);
    expect(await where(date, 'between_years', '0,1')).toEqual(['d2', 'd3']);
    // anniversaries in the next week: 28 November (d1, 1990) and 1 December (d3)
    expect(await where(date, 'birthday_weeks', 1)).toEqual(['d1', 'd2', 'd3']);
  });

  it('list operators, with Empty', async () => {
    const { list } = c.fields;
    const { red, blue } = c.options;
    expect(await where(list, 'equals', red.id)).toEqual(['d1', 'd3']);
    expect(await where(list, 'not_equals', red.id)).toEqual(['d2', 'd4', 'd5']);
    expect(await where(list, 'equals', 'EMPTY')).toEqual(['d4']);
    expect(await where(list, 'in', [blue.id, 'EMPTY'])).toEqual(['d2', 'd4', 'd5']);
  });

  it('user operators, with the logged-in user', async () => {
    const { user } = c.fields;
    expect(await where(user, 'equals', 'CURRENT_USER')).toEqual(['d1', 'd5']);
    expect(await where(user, 'not_equals', 'CURRENT_USER')).toEqual(['d2', 'd3', 'd4']);
    expect(await where(user, 'equals', '')).toEqual(['d3', 'd4']);
    expect(await where(user, 'in', [OTHER_USER])).toEqual(['d2']);
  });

  it('the other textual types: e-mail, url, autoIncrement and calc', async () => {
    const { email, url, auto, calc } = c.fields;
    expect(await where(email, 'string_like_equals', '.test')).toEqual(['d1']);
    expect(await where(email, 'string_exact_not_equals', 'bert@example.org')).toEqual([
      'd1',
      'd3',
      'd4',
      'd5',
    ]);
    expect(await where(url, 'string_is_not_empty')).toEqual(['d1']);
    expect(await where(url, 'string_empty')).toEqual(['d2', 'd3', 'd4', 'd5']);
    expect(await where(auto, 'number_gt', 7)).toEqual(['d2']);
    expect(await where(auto, 'string_exact_equals', '7')).toEqual(['d1']);
    expect(await where(calc, 'number_gte', 20)).toEqual(['d1', 'd2']);
    expect(await where(calc, 'number_not_equals', 20)).toEqual(['d2', 'd3', 'd4', 'd5']);
  });

  it('system dates relative to today, in Amsterdam days', async () => {
    // every dossier was created now: today for the real clock, so a query of "today" fixed in 2026-11-25
    // matches them only while the test runs on that day; compare with the creation day instead
    const created = await t.db
      .selectFrom('content_dossier')
      .select('created_at')
      .where('id', '=', d.d1)
      .executeTakeFirstOrThrow();
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(created.created_at);
    expect(await where('created_at', 'equals', day)).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);
    expect(await where('created_at', 'date_lt', day)).toEqual([]);
    expect(await where('modified_at', 'date_between', `${day},${day}`)).toEqual([
      'd1',
      'd2',
      'd3',
      'd4',
      'd5',
    ]);
  });

  it('textarea and system fields', async () => {
    expect(await where(c.fields.notes, 'string_empty')).toEqual(['d2', 'd3', 'd4', 'd5']);
    expect(await where(c.fields.notes, 'string_is_not_empty')).toEqual(['d1']);
    expect(await where('created_at', 'equals', 'NOT NULL')).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);
    expect(await where('created_by', 'equals', 'CURRENT_USER')).toEqual([]);
    expect(await where('id', 'in', [d.d2, d.d4])).toEqual(['d2', 'd4']);
  });

  it('combinators AND, OR and nested groups', async () => {
    const red: FieldCondition = { id: c.fields.list.dataField.id, type: 'equals', value: c.options.red.id };
    const big: FieldCondition = { id: c.fields.amount.dataField.id, type: 'number_gte', value: 20 };
    expect(await matching([group({ combine: 'OR', fields: [red, big] })])).toEqual(['d1', 'd2', 'd3', 'd5']);
    expect(await matching([group({ fields: [red, big] })])).toEqual([]);
    const nested = group({
      fields: [{ id: c.fields.name.dataField.id, type: 'string_is_not_empty', value: null }],
      combinators: [group({ combine: 'OR', fields: [red, big] })],
    });
    expect(await matching([nested])).toEqual(['d1', 'd2', 'd3']);
  });

  it('link conditions: nested conditions, empty / not empty, counts', async () => {
    const projects = c.links.projects.id;
    const link = (over: Partial<LinkCondition>) =>
      matching([group({ links: [{ id: projects, combinators: [], ...over }] })]);
    const alpha = group({ fields: [{ id: 'summary', type: 'string_like_equals', value: 'alp' }] });
    const beta = group({ fields: [{ id: 'summary', type: 'string_exact_equals', value: 'Beta' }] });
    expect(await link({ combinators: [alpha] })).toEqual(['d1', 'd2']);
    expect(await link({ combinators: [beta] })).toEqual(['d2']);
    expect(await link({ where_empty_not_empty: 'EMPTY' })).toEqual(['d3', 'd4', 'd5']);
    expect(await link({ where_empty_not_empty: 'NOT_EMPTY' })).toEqual(['d1', 'd2']);
    expect(await link({ where_min: 2 })).toEqual(['d2']);
    expect(await link({ where_max: 1 })).toEqual(['d1', 'd3', 'd4', 'd5']);
  });

  it('refuses an operator a field type does not have, an unknown field or link, too deep a nesting', async () => {
    const refused = async (combinators: Combinator[]) => {
      try {
        await matching(combinators);
        return null;
      } catch (error) {
        return error instanceof QueryCompileError ? error.message : String(error);
      }
    };
    expect(
      await refused([group({ fields: [{ id: c.fields.notes.dataField.id, type: 'number_gt', value: 1 }] })]),
    ).toBe('This operator cannot be used for this field');
    expect(await refused([group({ fields: [{ id: 987_654, type: 'string_empty', value: null }] })])).toBe(
      'Item not found',
    );
    expect(await refused([group({ links: [{ id: 987_654, combinators: [] }] })])).toBe('Unknown link');
    let deep = group({});
    for (let i = 0; i < 9; i++) deep = group({ combinators: [deep] });
    expect(await refused([deep])).toMatch(/Nest at most 8 levels|nested too deeply/);
  });
});
