import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, insertDossier } from '../content-dossier/fixture';
import { BLOCK_DATA_MESSAGES } from './data';

// The dossier list block's tabs (tab_queries): each tab reads its own saved query; a query that is not
// one of the block's tabs is refused, also for a query of the same entity.

let t: TestApp;
let c: DossierSetup;
const d: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  c = await dossierSetup(t);
  const list = String(c.fields.list.dataField.id);
  const { red, blue } = c.options;
  d.a = await insertDossier(t, c.client, 'a', { [list]: red.id });
  d.b = await insertDossier(t, c.client, 'b', { [list]: red.id });
  d.c = await insertDossier(t, c.client, 'c', { [list]: blue.id });
  d.e = await insertDossier(t, c.client, 'e', {});
  await c.grant(c.client, ['show']);
});
afterAll(() => t.close());

/** A saved query of the client entity: dossiers whose list field is this option. */
async function optionQuery(option: number): Promise<number> {
  const created = await c.admin.post('/api/dossierquery', {
    environment: c.environment.id,
    defDossier: c.client.id,
    data: {
      combinators: [
        {
          combine: 'AND',
          fields: [{ id: c.fields.list.dataField.id, type: 'equals', value: option }],
          links: [],
          combinators: [],
        },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

const ids = (answer: { list: { results: { dossiers: { id: number }[] } } }) =>
  answer.list.results.dossiers.map((dossier) => dossier.id).sort((x, y) => x - y);

describe('dossier list block tabs', () => {
  it('a tab reads its saved query, the block without a tab its own; other queries are refused', async () => {
    const red = await optionQuery(c.options.red.id);
    const blue = await optionQuery(c.options.blue.id);
    const other = await optionQuery(c.options.blue.id);
    const created = await c.admin.post('/api/mypageblock', {
      environment: c.environment.id,
      type: 'dashboard',
      defDossier: c.client.id,
      settings: {
        layout: 'cards',
        template: 'cardPerson',
        tab_queries: [
          { query: red, title: 'Red' },
          { query: blue, title: 'Blue' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const block = created.json().id as number;
    const read = (query: string, client = c.member) => client.get(`/api/mypageblock/${block}/data${query}`);

    const all = await read('');
    expect(all.statusCode, all.body).toBe(200);
    expect(ids(all.json())).toEqual([d.a, d.b, d.c, d.e]);
    const reds = await read(`?query=${red}`);
    expect(ids(reds.json())).toEqual([d.a, d.b]);
    expect(reds.json().list.pager.items).toBe(2);
    expect(ids((await read(`?query=${blue}`)).json())).toEqual([d.c]);

    const refused = await read(`?query=${other}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { query: BLOCK_DATA_MESSAGES.unknownTab } });
    expect((await read('?query=abc')).statusCode).toBe(400);
    // a block of another type takes no tab
    const sum = await c.admin.post('/api/mypageblock', {
      environment: c.environment.id,
      type: 'sum_fields',
      defDossier: c.client.id,
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    expect((await c.member.get(`/api/mypageblock/${sum.json().id}/data?query=${red}`)).statusCode).toBe(200);
  });
});
