import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setItemRoles } from '../../../test/entity-factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, insertDossier, linkDossiers } from '../content-dossier/fixture';

// Every block type's data against five dossiers whose counts and sums are written out by hand.

let t: TestApp;
let c: DossierSetup;
const d: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  c = await dossierSetup(t);
  const f = c.fields;
  const v = (field: { dataField: { id: number } }) => String(field.dataField.id);
  const { red, blue } = c.options;
  const rows: [string, Record<string, unknown>, string][] = [
    ['a', { [v(f.list)]: red.id, [v(f.amount)]: 10, [v(f.date)]: '2026-01-15' }, '2026-01-20T10:00:00Z'],
    ['b', { [v(f.list)]: red.id, [v(f.amount)]: 20.5, [v(f.date)]: '2026-01-31' }, '2026-02-03T10:00:00Z'],
    ['c', { [v(f.list)]: blue.id, [v(f.amount)]: 5, [v(f.date)]: '2026-02-01' }, '2026-02-10T10:00:00Z'],
    ['d', { [v(f.list)]: blue.id, [v(f.date)]: '2026-04-02' }, '2026-04-05T10:00:00Z'],
    ['e', { [v(f.amount)]: 100 }, '2026-04-06T10:00:00Z'],
  ];
  for (const [name, values, createdAt] of rows) {
    d[name] = await insertDossier(t, c.client, name, values);
    await t.db
      .updateTable('content_dossier')
      .set({ created_at: new Date(createdAt) })
      .where('id', '=', d[name])
      .execute();
  }
  // an archived one never counts
  const archived = await insertDossier(t, c.client, 'archived', { [v(f.list)]: red.id, [v(f.amount)]: 1000 });
  await t.db.updateTable('content_dossier').set({ archived: true }).where('id', '=', archived).execute();
  // a and b link to project Alpha, c to Beta
  const [alpha, beta] = c.projectsDossiers;
  await linkDossiers(t, c.environment.id, c.links.projects.id, [
    [d.a, alpha],
    [d.b, alpha],
    [d.c, beta],
  ]);
  await c.grant(c.client, ['show']);
  await c.grant(c.project, ['show']);
});
afterAll(() => t.close());

const block = async (body: Record<string, unknown>) => {
  const created = await c.admin.post('/api/mypageblock', { environment: c.environment.id, ...body });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: number; uuid: string };
};
const data = async (id: number, query = '', client = c.admin) => {
  const response = await client.get(`/api/mypageblock/${id}/data${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('block data', () => {
  it('count_list_options by month of a date field, by quarter and by creation year', async () => {
    const { id } = await block({
      type: 'count_list_options',
      defDossier: c.client.id,
      settings: {
        count_list_field: c.fields.list.dataField.id,
        date_field: c.fields.date.dataField.id,
        date_format: 'year_month',
      },
    });
    const { red, blue } = c.options;
    const byMonth = await data(id);
    expect(byMonth.options.map((o: { id: number }) => o.id)).toEqual([red.id, blue.id]);
    expect(byMonth.rows).toEqual([
      { period: '2026-01', option: red.id, count: 2 },
      { period: '2026-02', option: blue.id, count: 1 },
      { period: '2026-04', option: blue.id, count: 1 },
      { period: null, option: null, count: 1 },
    ]);
    const byQuarter = await data(id, '?date_format=quarter');
    expect(byQuarter.rows).toEqual([
      { period: '2026-Q1', option: red.id, count: 2 },
      { period: '2026-Q1', option: blue.id, count: 1 },
      { period: '2026-Q2', option: blue.id, count: 1 },
      { period: null, option: null, count: 1 },
    ]);
    const created = await block({
      type: 'count_list_options',
      defDossier: c.client.id,
      settings: {
        count_list_field: c.fields.list.dataField.id,
        use_creation_date: true,
        date_format: 'year',
      },
    });
    const byCreation = await data(created.id);
    expect(byCreation.rows).toEqual(
      expect.arrayContaining([
        { period: '2026', option: red.id, count: 2 },
        { period: '2026', option: blue.id, count: 2 },
        { period: '2026', option: null, count: 1 },
      ]),
    );
  });

  it('sum_fields, funnel, date_statistics and percentage of a saved query', async () => {
    const sum = await block({
      type: 'sum_fields',
      defDossier: c.client.id,
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    expect(await data(sum.id)).toEqual({ sum: 135.5, count: 5 });

    const funnel = await block({ type: 'funnel', settings: { list_field: c.fields.list.dataField.id } });
    const steps = (await data(funnel.id)).steps;
    expect(steps.map((s: { id: number; count: number }) => [s.id, s.count])).toEqual([
      [c.options.red.id, 2],
      [c.options.blue.id, 2],
    ]);

    const months = await block({
      type: 'date_statistics',
      defDossier: c.client.id,
      settings: { period: 'month' },
    });
    expect((await data(months.id)).rows).toEqual([
      { period: '2026-01', count: 1 },
      { period: '2026-02', count: 2 },
      { period: '2026-04', count: 2 },
    ]);

    const red = await c.admin.post('/api/dossierquery', {
      environment: c.environment.id,
      defDossier: c.client.id,
      data: {
        combinators: [
          {
            combine: 'AND',
            fields: [{ id: c.fields.list.dataField.id, type: 'equals', value: c.options.red.id }],
            links: [],
            combinators: [],
          },
        ],
      },
    });
    const pie = await block({
      type: 'list_option_percentage_conditions',
      defDossier: c.client.id,
      settings: { pie_charts: [{ title: 'Red', color: '#ff0000', dossier_query: red.json().id }] },
    });
    expect((await data(pie.id)).charts).toEqual([
      { title: 'Red', color: '#ff0000', total: 5, part: 2, percentage: 40 },
    ]);

    // a block over a saved query reads only its dossiers
    const redSum = await block({
      type: 'sum_fields',
      defDossier: c.client.id,
      dossierQuery: red.json().id,
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    expect(await data(redSum.id)).toEqual({ sum: 30.5, count: 2 });
  });

  it('count_link_options, the dashboard list, a container, and a block about one dossier (block_link)', async () => {
    const links = await block({
      type: 'count_link_options',
      defDossier: c.client.id,
      settings: { count_link_field: c.links.projects.id, use_creation_date: true, date_format: 'year' },
    });
    const [alpha, beta] = c.projectsDossiers;
    expect((await data(links.id)).rows).toEqual([
      { period: '2026', dossier: alpha, summary: 'Alpha', count: 2 },
      { period: '2026', dossier: beta, summary: 'Beta', count: 1 },
    ]);

    const list = await block({ type: 'dashboard', defDossier: c.client.id, settings: { limit: 3 } });
    const answer = (await data(list.id)).list;
    expect(answer.results.dossiers).toHaveLength(3);
    expect(answer.pager.items).toBe(5);

    const containerBlock = await block({ type: 'block_container' });
    const child = await block({
      type: 'sum_fields',
      defDossier: c.client.id,
      parent: containerBlock.id,
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    expect(await data(containerBlock.id)).toEqual({ children: [child.id] });

    // the projects of one client: Alpha's cases through the link, seen from project Alpha
    const ofProject = await block({
      type: 'sum_fields',
      defDossier: c.client.id,
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    expect(await data(ofProject.id, `?dossier=${alpha}&linkId=${c.links.projects.id}`)).toEqual({
      sum: 30.5,
      count: 2,
    });
  });

  it('statistics: new dossiers per weekday, most active users, online users', async () => {
    const fresh = await c.admin.post('/api/contentdossier', {
      defDossier: c.client.id,
      values: { [String(c.fields.name.item.id)]: 'fresh one' },
    });
    expect(fresh.statusCode, fresh.body).toBe(201);
    const stats = await c.admin.post('/api/environmentadmin/statistics/contentdossier', {
      environment: c.environment.id,
    });
    expect(stats.statusCode, stats.body).toBe(200);
    const lastWeek = stats.json().lastweek as { cd_count: number }[];
    expect(lastWeek.reduce((n, r) => n + r.cd_count, 0)).toBeGreaterThanOrEqual(1);
    const active = await c.admin.post('/api/environmentadmin/statistics/users_most_active', {
      environment: c.environment.id,
    });
    expect(active.json().rows[0]).toEqual({
      user_id: expect.any(Number),
      username: expect.any(String),
      total_count: 1,
    });
    // through inject no socket is open: everyone is offline
    const online = await c.admin.post('/api/environmentadmin/statistics/user_current', {
      environment: c.environment.id,
    });
    expect(online.json()).toEqual({ online: 0, offline: expect.any(Number) });
    expect(
      (
        await c.member.post('/api/environmentadmin/statistics/contentdossier', {
          environment: c.environment.id,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('who sees what', () => {
  it('a block of other roles is hidden, a block grouped by a hidden field is not answered, an unshown entity is refused', async () => {
    const otherRole = await t.db
      .insertInto('role')
      .values({ environment_id: c.environment.id, name: 'Others', translations: [] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const theirs = await block({
      type: 'sum_fields',
      defDossier: c.client.id,
      roles: [otherRole.id],
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    const ours = await block({
      type: 'sum_fields',
      defDossier: c.client.id,
      roles: [c.role.id],
      settings: { sum_field: c.fields.amount.dataField.id },
    });
    const listed = (await c.member.get(`/api/mypageblock?environment=${c.environment.id}&limit=500`)).json();
    const ids = listed.results.map((b: { id: number }) => b.id);
    expect(ids).toContain(ours.id);
    expect(ids).not.toContain(theirs.id);
    expect((await c.member.get(`/api/mypageblock/${theirs.id}/data`)).statusCode).toBe(404);
    expect((await data(ours.id, '', c.member)).sum).toBe(135.5);

    // the amount hidden from the member's role: the sum is not answered
    await setItemRoles(t.db, c.fields.amount.item.id, 'INCLUDE_SELECTED_ROLES', [otherRole.id]);
    expect((await c.member.get(`/api/mypageblock/${ours.id}/data`)).statusCode).toBe(403);
    await setItemRoles(t.db, c.fields.amount.item.id, 'EXCLUDE_SELECTED_ROLES', []);

    // no show on the entity: refused
    await c.grant(c.client, ['create']);
    expect((await c.member.get(`/api/mypageblock/${ours.id}/data`)).statusCode).toBe(403);
    await c.grant(c.client, ['show']);
  });

  it('positions: the own view falls back to the default view; only admins save the default', async () => {
    const one = await block({ type: 'block_container' });
    const save = (client: typeof c.admin, body: Record<string, unknown>) =>
      client.patch(`/api/mypage/${c.environment.id}/position`, body);
    const grid = [{ block: one.id, xPos: 6, yPos: 0, blockWidth: 0, blockHeight: 12 }];
    expect((await save(c.member, { blocks: grid, default: true })).statusCode).toBe(403);
    const saved = await save(c.admin, { blocks: grid, default: true });
    expect(saved.json().positions).toEqual([{ uuid: one.uuid, x: 6, y: 0, w: 5, h: 12 }]);
    const read = (await c.member.get(`/api/mypage/${c.environment.id}/position`)).json();
    expect(read.positions).toEqual([{ uuid: one.uuid, x: 6, y: 0, w: 5, h: 12 }]);
    await save(c.member, { blocks: [{ block: one.uuid, xPos: 0, yPos: 3, blockWidth: 7, blockHeight: 9 }] });
    expect((await c.member.get(`/api/mypage/${c.environment.id}/position`)).json().positions).toEqual([
      { uuid: one.uuid, x: 0, y: 3, w: 7, h: 9 },
    ]);
    expect(
      (await c.member.get(`/api/mypage/${c.environment.id}/position?default=true`)).json().positions[0].x,
    ).toBe(6);
  });

  it('validation: type, entity, col and the settings a type needs', async () => {
    const post = (body: Record<string, unknown>) =>
      c.admin.post('/api/mypageblock', { environment: c.environment.id, ...body });
    expect((await post({})).json().errors.type).toBe('This is a required field');
    expect((await post({ type: 'sum_fields' })).json().errors).toEqual({
      defDossier: 'This is a required field',
      sum_field: 'This is a required field',
    });
    expect((await post({ type: 'block_container', col: 13 })).json().errors.col).toBe(
      'Enter a number from 1 to 12',
    );
    expect((await post({ type: 'date_statistics', defDossier: c.client.id })).json().errors.period).toBe(
      'This is a required field',
    );
    expect((await post({ type: 'block_container', roles: [999999] })).json().errors.roles).toBe(
      'Unknown role',
    );
  });
});

describe('chart settings', () => {
  it('keeps the chart settings of the lists, refuses values outside them, keeps settings it does not know', async () => {
    const post = (settings: Record<string, unknown>) =>
      c.admin.post('/api/mypageblock', {
        environment: c.environment.id,
        type: 'count_list_options',
        defDossier: c.client.id,
        settings: { count_list_field: c.fields.list.dataField.id, ...settings },
      });
    const chart = {
      scheme: 'yellow_green_blue',
      chart_format: 'table',
      group_format: 'stacked',
      chart_layout: 'horizontal',
      table_layout: 'ver6',
      legend_direction: 'bottom-to-top',
      reverse_axis: 'yes',
      show_y_scroll: 'no',
      enable_labels: true,
      enable_grid: 'no',
      something_else: { kept: 1 },
    };
    const created = await post(chart);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().settings).toMatchObject(chart);
    const refused = await post({
      scheme: 'rainbow',
      chart_format: 'radar',
      table_layout: 'ver7',
      reverse_axis: 'maybe',
    });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors).sort()).toEqual([
      'settings.chart_format',
      'settings.reverse_axis',
      'settings.scheme',
      'settings.table_layout',
    ]);
    const patched = await c.admin.patch(`/api/mypageblock/${created.json().id}`, {
      settings: { count_list_field: c.fields.list.dataField.id, legend_direction: 'sideways' },
    });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().errors['settings.legend_direction']).toBe('Choose one of the listed values');
  });
});
