import { FORBIDDEN_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildLink } from '../../../test/entity-factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import {
  type DossierSetup,
  dossierSetup,
  insertDossier,
  key,
  linkDossiers,
} from '../content-dossier/fixture';

// The view lists of embedded lists and dossier lists (kanban board and columns, calendar range), the
// kanban move through /api/contentlist and the calendar move, each with and without permission.

let t: TestApp;
let s: DossierSetup;
let parent: number;
let linkId: number;
const card: Record<string, number> = {};

const stored = async (id: number, dataFieldId: number) => {
  const row = await t.db
    .selectFrom('content_dossier')
    .select('values')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return (row.values as Record<string, unknown>)[String(dataFieldId)];
};

beforeAll(async () => {
  t = await createTestApp();
  s = await dossierSetup(t);
  const f = s.fields;
  await t.db
    .updateTable('def_dossier')
    .set({
      settings: JSON.stringify({
        kanban_search_field: f.name.dataField.id,
        kanban_list_field: f.list.dataField.id,
        calendar_date_field: f.date.dataField.id,
        calendar_edit_start: f.date.dataField.id,
        calendar_default: 'week',
      }) as never,
    })
    .where('id', '=', s.client.id)
    .execute();
  // Clients listed inside a project (an embedded list of the project's dossiers)
  const link = await buildLink(t.db, s.project, s.client, { name: 'clients', typeOfLink: 'embeddedList' });
  linkId = link.id;
  parent = await insertDossier(t, s.project, 'Gamma');
  const make = (name: string, values: Record<string, unknown>) =>
    insertDossier(t, s.client, name, { [f.name.dataField.id]: name, ...values });
  card.red1 = await make('Red one', {
    [f.list.dataField.id]: s.options.red.id,
    [f.date.dataField.id]: '2026-03-02',
  });
  card.red2 = await make('Red two', {
    [f.list.dataField.id]: s.options.red.id,
    [f.date.dataField.id]: '2026-03-20',
  });
  card.blue = await make('Blue one', {
    [f.list.dataField.id]: s.options.blue.id,
    [f.date.dataField.id]: '2026-04-01',
  });
  card.none = await make('Nothing', {});
  card.outside = await make('Red elsewhere', { [f.list.dataField.id]: s.options.red.id });
  await linkDossiers(
    t,
    s.environment.id,
    linkId,
    [card.red1, card.red2, card.blue, card.none].map((id) => [parent, id]),
  );
  await s.grant(s.project, ['show']);
});
afterAll(() => t.close());

const embedded = () =>
  `defDossier=${s.client.id}&environment=${s.environment.id}&embedded=${parent}&linkId=${linkId}`;
const ids = (body: { results: { dossiers: { id: number }[] } }) =>
  body.results.dossiers.map((d) => d.id).sort();

describe('kanban', () => {
  test('the board: the list field options as columns, with the edit item only for editors', async () => {
    await s.grant(s.client, ['show', 'edit']);
    const board = await s.admin.get(`/api/contentdossier/kanban/board?${embedded()}`);
    expect(board.statusCode, board.body).toBe(200);
    expect(board.json()).toMatchObject({
      missing: null,
      list_item_id: s.fields.list.item.id,
      multiple: false,
      columns: [
        { id: s.options.red.id, translations: [{ text: 'Red' }] },
        { id: s.options.blue.id, translations: [{ text: 'Blue' }] },
      ],
    });
    expect((await s.member.get(`/api/contentdossier/kanban/board?${embedded()}`)).json().list_item_id).toBe(
      s.fields.list.item.id,
    );
    await s.grant(s.client, ['show']);
    expect((await s.member.get(`/api/contentdossier/kanban/board?${embedded()}`)).json().list_item_id).toBe(
      null,
    );
    await s.grant(s.client, []);
    expect((await s.member.get(`/api/contentdossier/kanban/board?${embedded()}`)).statusCode).toBe(403);
    // another environment's admin learns nothing
    expect((await s.outsider.get(`/api/contentdossier/kanban/board?${embedded()}`)).statusCode).toBe(404);
  });

  test('a column: the linked dossiers holding the option, paged, searchable; none for no value', async () => {
    await s.grant(s.client, ['show']);
    const red = await s.member.get(`/api/contentdossier/kanban?${embedded()}&option=${s.options.red.id}`);
    expect(red.statusCode, red.body).toBe(200);
    expect(ids(red.json())).toEqual([card.red1, card.red2].sort());
    expect(red.json().pager).toMatchObject({ items: 2, limit: 50 });
    const paged = await s.member.get(
      `/api/contentdossier/kanban?${embedded()}&option=${s.options.red.id}&limit=1&page=1`,
    );
    expect(paged.json().results.dossiers).toHaveLength(1);
    expect(paged.json().pager).toMatchObject({ current: 1, pages: 2, items: 2 });
    const none = await s.member.get(`/api/contentdossier/kanban?${embedded()}&option=none`);
    expect(ids(none.json())).toEqual([card.none]);
    const searched = await s.member.get(
      `/api/contentdossier/kanban?${embedded()}&option=${s.options.red.id}&search=two`,
    );
    expect(ids(searched.json())).toEqual([card.red2]);
    // outside the embedded list: every red dossier of the entity
    const all = await s.member.get(
      `/api/contentdossier/kanban?defDossier=${s.client.id}&option=${s.options.red.id}`,
    );
    expect(ids(all.json())).toEqual([card.red1, card.red2, card.outside].sort());
    expect((await s.member.get(`/api/contentdossier/kanban?${embedded()}&option=x`)).statusCode).toBe(400);
    expect((await s.outsider.get(`/api/contentdossier/kanban?${embedded()}&option=none`)).statusCode).toBe(
      404,
    );
  });

  test('moving a card sets the list value; refused without edit permission', async () => {
    const move = (as: typeof s.admin, id: number, option: number) =>
      as.post(`/api/contentlist/${id}/${s.fields.list.item.id}/set`, { values: [option] });
    await s.grant(s.client, ['show']);
    const refused = await move(s.member, card.red1, s.options.blue.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: FORBIDDEN_MESSAGE });
    expect(await stored(card.red1, s.fields.list.dataField.id)).toBe(s.options.red.id);
    await s.grant(s.client, ['show', 'edit']);
    expect((await move(s.member, card.red1, s.options.blue.id)).statusCode).toBe(200);
    expect(await stored(card.red1, s.fields.list.dataField.id)).toBe(s.options.blue.id);
    const blue = await s.member.get(`/api/contentdossier/kanban?${embedded()}&option=${s.options.blue.id}`);
    expect(ids(blue.json())).toEqual([card.red1, card.blue].sort());
    await move(s.admin, card.red1, s.options.red.id);
  });

  test("the board carries each column's first page, as the column call answers it", async () => {
    await s.grant(s.client, ['show']);
    const red = String(s.options.red.id);
    const blue = String(s.options.blue.id);
    const board = async (query: string) => {
      const response = await s.member.get(`/api/contentdossier/kanban/board?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().pages as Record<string, Parameters<typeof ids>[0] & { pager: unknown }>;
    };
    const column = async (option: string, extra = '') =>
      (await s.member.get(`/api/contentdossier/kanban?${embedded()}&option=${option}${extra}`)).json();
    const pages = await board(embedded());
    expect(Object.keys(pages).sort()).toEqual([red, blue].sort());
    expect(ids(pages[red])).toEqual([card.red1, card.red2].sort());
    expect(pages[red].pager).toEqual({ current: 0, pages: 1, items: 2, limit: 50 });
    expect(ids(pages[blue])).toEqual([card.blue]);
    expect(pages[blue].pager).toEqual({ current: 0, pages: 1, items: 1, limit: 50 });
    for (const option of [red, blue]) expect(pages[option]).toEqual(await column(option));
    // with a search, of the cards that match it
    const searched = await board(`${embedded()}&search=two`);
    expect(ids(searched[red])).toEqual([card.red2]);
    expect(ids(searched[blue])).toEqual([]);
    for (const option of [red, blue]) expect(searched[option]).toEqual(await column(option, '&search=two'));
    // a page size of one: the newest card, and the column's total
    const small = await board(`${embedded()}&limit=1`);
    expect(ids(small[red])).toEqual([card.red2]);
    expect(small[red].pager).toEqual({ current: 0, pages: 2, items: 2, limit: 1 });
    // outside an embedded list: the entity's cards (the totals from the option counters)
    const all = await board(`defDossier=${s.client.id}`);
    expect(ids(all[red])).toEqual([card.red1, card.red2, card.outside].sort());
    expect(all[red].pager).toEqual({ current: 0, pages: 1, items: 3, limit: 50 });
  });

  test('without the kanban settings: the board names what is missing, a column answers 400', async () => {
    const settings = { kanban_search_field: s.fields.name.dataField.id };
    await t.db
      .updateTable('def_dossier')
      .set({ settings: JSON.stringify(settings) as never })
      .where('id', '=', s.client.id)
      .execute();
    try {
      const board = await s.admin.get(`/api/contentdossier/kanban/board?${embedded()}`);
      expect(board.json()).toMatchObject({ missing: 'kanban_list_field', columns: [] });
      const column = await s.admin.get(`/api/contentdossier/kanban?${embedded()}&option=none`);
      expect(column.statusCode).toBe(400);
      expect(column.json().errors).toHaveProperty('kanban_list_field');
    } finally {
      await t.db
        .updateTable('def_dossier')
        .set({
          settings: JSON.stringify({
            kanban_search_field: s.fields.name.dataField.id,
            kanban_list_field: s.fields.list.dataField.id,
            calendar_date_field: s.fields.date.dataField.id,
            calendar_edit_start: s.fields.date.dataField.id,
            calendar_default: 'week',
          }) as never,
        })
        .where('id', '=', s.client.id)
        .execute();
    }
  });
});

describe('calendar', () => {
  const range = (start: string, end: string) =>
    `/api/contentdossier/calendar?${embedded()}&start=${start}&end=${end}`;

  test('the dossiers of a range with their start; editable only with edit permission', async () => {
    await s.grant(s.client, ['show']);
    const march = await s.member.get(range('2026-03-01', '2026-04-01'));
    expect(march.statusCode, march.body).toBe(200);
    const body = march.json();
    expect(ids(body)).toEqual([card.red1, card.red2].sort());
    expect(body.events).toEqual(
      expect.arrayContaining([
        { id: card.red1, start: '2026-03-02', end: null },
        { id: card.red2, start: '2026-03-20', end: null },
      ]),
    );
    expect(body).toMatchObject({
      missing: null,
      default_view: 'week',
      editable: { start: false, end: false },
    });
    await s.grant(s.client, ['show', 'edit']);
    expect((await s.member.get(range('2026-03-01', '2026-04-01'))).json().editable).toEqual({
      start: true,
      end: false,
    });
    expect((await s.member.get(range('2026-03-01', 'later'))).statusCode).toBe(400);
    expect((await s.outsider.get(range('2026-03-01', '2026-04-01'))).statusCode).toBe(404);
  });

  test('moving an event writes calendar_edit_start; refused without edit permission', async () => {
    await s.grant(s.client, ['show']);
    const url = `/api/contentdossier/${card.red2}/calendar`;
    expect((await s.member.patch(url, { start: '2026-03-25' })).statusCode).toBe(403);
    expect(await stored(card.red2, s.fields.date.dataField.id)).toBe('2026-03-20');
    await s.grant(s.client, ['show', 'edit']);
    const moved = await s.member.patch(url, { start: '2026-03-25T10:00:00.000Z' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await stored(card.red2, s.fields.date.dataField.id)).toBe('2026-03-25');
    expect((await s.member.patch(url, { start: 'soon' })).statusCode).toBe(400);
    expect((await s.outsider.patch(url, { start: '2026-03-25' })).statusCode).toBe(404);
  });
});

describe('row entry', () => {
  test('customView=row_input creates from the row_input items, linked to the embedded parent', async () => {
    await s.grant(s.client, ['show', 'create']);
    const rowName = await buildDisplayItem(t.db, s.client, {
      dataFieldId: s.fields.name.dataField.id,
      view: 'row_input',
    });
    const created = await s.member.post('/api/contentdossier?customView=row_input', {
      defDossier: s.client.id,
      values: { [key(rowName)]: 'Row entered' },
      embedded: parent,
      linkId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect(await stored(id, s.fields.name.dataField.id)).toBe('Row entered');
    const listed = await s.member.get(`/api/contentdossier?${embedded()}`);
    expect(ids(listed.json())).toContain(id);
    // an item of the edit form is not one of the row form's
    const other = await s.member.post('/api/contentdossier?customView=row_input', {
      defDossier: s.client.id,
      values: { [key(rowName)]: 'Row two', [key(s.fields.notes.item)]: 'x' },
    });
    expect(other.statusCode).toBe(400);
    expect(
      (await s.member.post('/api/contentdossier?customView=other', { defDossier: s.client.id })).statusCode,
    ).toBe(400);
  });
});
