import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDisplayItem } from '../../../test/entity-factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, insertDossier } from '../content-dossier/fixture';
import { BLOCK_MESSAGES } from './blocks';
import { BLOCK_DATA_MESSAGES } from './data';

// The dossier list block's tabs (tab_queries): each tab reads its own saved query; a query that is not
// one of the block's tabs is refused, also for a query of the same entity. Its view (view_name): the
// columns are the items of the list view or of a custom view of the entity, named on save.

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

describe('dossier list block view', () => {
  it('shows the items of its custom view; an unknown view or one of another entity is refused', async () => {
    const view = await c.admin.post('/api/displaycustomview', {
      environment: c.environment.id,
      defDossier: c.client.id,
      viewName: 'Compact',
    });
    expect(view.statusCode, view.body).toBe(201);
    const compact = await buildDisplayItem(t.db, c.client, {
      dataFieldId: c.fields.list.dataField.id,
      view: 'Compact',
    });
    const listItems = (
      await t.db
        .selectFrom('display_item')
        .select('id')
        .where('def_dossier_id', '=', c.client.id)
        .where('view', '=', 'list')
        .execute()
    ).map((row) => row.id);
    const save = (settings: Record<string, unknown>, defDossier = c.client.id) =>
      c.admin.post('/api/mypageblock', {
        environment: c.environment.id,
        type: 'dashboard',
        defDossier,
        settings,
      });
    const itemsOf = async (block: number) => {
      const answer = await c.member.get(`/api/mypageblock/${block}/data`);
      expect(answer.statusCode, answer.body).toBe(200);
      const list = answer.json().list;
      return {
        items: (list.results.items as { id: number }[]).map((item) => item.id).sort((x, y) => x - y),
        contents: list.results.contents as Record<string, Record<string, unknown>>,
      };
    };

    const custom = await save({ view_name: 'Compact', layout: 'table' });
    expect(custom.statusCode, custom.body).toBe(201);
    const shown = await itemsOf(custom.json().id);
    expect(shown.items).toEqual([compact.id]);
    expect(shown.contents[String(d.c)]?.[String(compact.id)]).toBe(c.options.blue.id);
    // without a view (or 'list'): the list view's items
    const plain = await save({ view_name: 'list' });
    expect((await itemsOf(plain.json().id)).items).toEqual([...listItems].sort((x, y) => x - y));

    const unknown = await save({ view_name: 'Nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ errors: { view_name: BLOCK_MESSAGES.unknownView } });
    const ofProject = await save({ view_name: 'Compact' }, c.project.id);
    expect(ofProject.statusCode).toBe(400);
    // moving the block to another entity checks its view there
    const moved = await c.admin.patch(`/api/mypageblock/${custom.json().id}`, { defDossier: c.project.id });
    expect(moved.statusCode).toBe(400);

    // renaming the view carries the block along
    const renamed = await c.admin.patch(`/api/displaycustomview/${view.json().id}`, { viewName: 'Short' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const block = await c.admin.get(`/api/mypageblock/${custom.json().id}`);
    expect(block.json().settings.view_name).toBe('Short');
    expect((await itemsOf(custom.json().id)).items).toEqual([compact.id]);
    // a patch of one field leaves the others as they are
    const hidden = await c.admin.patch(`/api/mypageblock/${custom.json().id}`, { dashboard: false });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toMatchObject({
      dashboard: false,
      settings: { view_name: 'Short', layout: 'table' },
    });
    // a view deleted under a block: the block says its settings are not supported
    await t.db.deleteFrom('display_item').where('id', '=', compact.id).execute();
    expect((await c.admin.delete(`/api/displaycustomview/${view.json().id}`)).statusCode).toBe(204);
    const gone = await c.member.get(`/api/mypageblock/${custom.json().id}/data`);
    expect(gone.statusCode).toBe(400);
    expect(gone.json()).toEqual({ errors: { view_name: BLOCK_DATA_MESSAGES.notSupported } });
  });
});
