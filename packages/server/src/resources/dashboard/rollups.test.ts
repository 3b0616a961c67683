import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { put } from '../../../test/entity-test-setup';
import { failDossierWrites } from '../../../test/fail-writes';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { indexJobsIdle } from '../../query/index-jobs';
import { type DossierSetup, dossierSetup, insertDossier, key } from '../content-dossier/fixture';
import {
  compactRollup,
  earnRollup,
  type Grouping,
  rolledUpCounts,
  rolledUpPeriods,
  rolledUpSum,
} from './rollups';

// The rollups the dashboard blocks read (counts by list option and month, sums, counts per day) and the
// blocks that read them (count by list option, sum, funnel, date statistics, percentage over the whole
// entity) equal a fresh SQL count over the rows after every kind of write: creates, edits of the
// option, the date and the amount, archive, delete, mass update, merge, bulk archive, concurrent
// writers, and a write that rolls back.

let t: TestApp;
let c: DossierSetup;
const blocks = {
  byDate: 0,
  byCreation: 0,
  sum: 0,
  funnel: 0,
  weeksByDate: 0,
  monthsByCreation: 0,
  percentage: 0,
};

beforeAll(async () => {
  t = await createTestApp();
  c = await dossierSetup(t);
  await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', c.client.id).execute();
  const block = async (type: string, settings: Record<string, unknown>) => {
    const created = await c.admin.post('/api/mypageblock', {
      environment: c.environment.id,
      type,
      defDossier: c.client.id,
      settings,
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: number }).id;
  };
  const list = c.fields.list.dataField.id;
  blocks.byDate = await block('count_list_options', {
    count_list_field: list,
    date_field: c.fields.date.dataField.id,
    date_format: 'year_month',
  });
  blocks.byCreation = await block('count_list_options', { count_list_field: list, use_creation_date: true });
  blocks.sum = await block('sum_fields', { sum_field: c.fields.amount.dataField.id });
  blocks.funnel = await block('funnel', { list_field: list });
  blocks.weeksByDate = await block('date_statistics', {
    period: 'week',
    date_field: c.fields.date.dataField.id,
  });
  blocks.monthsByCreation = await block('date_statistics', { period: 'month' });
  blocks.percentage = await block('list_option_percentage_conditions', {
    pie_charts: [{ title: 'All', total_query: null, dossier_query: null }],
  });
});
afterAll(() => t.close());

const groupings = (): Grouping[] => [
  {
    environmentId: c.environment.id,
    entityId: c.client.id,
    kind: 'count',
    fieldId: c.fields.list.dataField.id,
    dateFieldId: c.fields.date.dataField.id,
  },
  {
    environmentId: c.environment.id,
    entityId: c.client.id,
    kind: 'count',
    fieldId: c.fields.list.dataField.id,
    dateFieldId: null,
  },
  {
    environmentId: c.environment.id,
    entityId: c.client.id,
    kind: 'sum',
    fieldId: c.fields.amount.dataField.id,
    dateFieldId: null,
  },
  {
    environmentId: c.environment.id,
    entityId: c.client.id,
    kind: 'day',
    fieldId: null,
    dateFieldId: c.fields.date.dataField.id,
  },
  { environmentId: c.environment.id, entityId: c.client.id, kind: 'day', fieldId: null, dateFieldId: null },
];

const values = (option: { id: number } | null, date: string | null, amount: number | string | null) => ({
  [key(c.fields.name.item)]: `Client ${Math.random()}`,
  ...(option ? { [key(c.fields.list.item)]: option.id } : {}),
  ...(date ? { [key(c.fields.date.item)]: date } : {}),
  ...(amount !== null ? { [key(c.fields.amount.item)]: amount } : {}),
});
const create = async (v: Record<string, unknown>) => {
  const response = await c.admin.post('/api/contentdossier', { defDossier: c.client.id, values: v });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: number }).id;
};

type CountRow = { period: string | null; option: number | null; count: number };
const sorted = (rows: CountRow[]) =>
  [...rows].sort(
    (a, b) =>
      String(a.period ?? '~').localeCompare(String(b.period ?? '~')) ||
      (a.option ?? 1e15) - (b.option ?? 1e15),
  );

/** The block's grouping counted afresh over the rows, in a date format. */
async function freshCounts(byCreation: boolean, format: 'year_month' | 'quarter' | 'year') {
  const pattern = { year_month: 'YYYY-MM', quarter: 'YYYY-"Q"Q', year: 'YYYY' }[format];
  const date = sql.raw(`("values" ->> '${c.fields.date.dataField.id}')`);
  const period = byCreation
    ? sql`to_char(created_at at time zone 'Europe/Amsterdam', ${pattern})`
    : sql`(case when ${date} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then to_char(cast(substr(${date}, 1, 10) as date), ${pattern}) end)`;
  const { rows } = await sql<{ period: string | null; option: string | null; count: string }>`
    select ${period} as period, ("values" -> ${String(c.fields.list.dataField.id)} #>> '{}') as option,
      count(*) as count
    from content_dossier
    where environment_id = ${c.environment.id} and def_dossier_id = ${c.client.id} and not archived
    group by 1, 2`.execute(t.db);
  return sorted(
    rows.map((r) => ({
      period: r.period,
      option: r.option === null ? null : Number(r.option),
      count: Number(r.count),
    })),
  );
}

const PATTERNS = { week: 'IYYY-"W"IW', month: 'YYYY-MM', year: 'YYYY' } as const;

/** A date_statistics block's rows counted afresh: the last 24 periods, oldest first, no date last. */
async function freshPeriods(byCreation: boolean, period: keyof typeof PATTERNS) {
  const pattern = PATTERNS[period];
  const date = sql.raw(`("values" ->> '${c.fields.date.dataField.id}')`);
  const expression = byCreation
    ? sql`to_char(created_at at time zone 'Europe/Amsterdam', ${pattern})`
    : sql`(case when ${date} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then to_char(cast(substr(${date}, 1, 10) as date), ${pattern}) end)`;
  const { rows } = await sql<{ period: string | null; count: string }>`
    select ${expression} as period, count(*) as count
    from content_dossier
    where environment_id = ${c.environment.id} and def_dossier_id = ${c.client.id} and not archived
    group by 1 order by 1 desc limit 24`.execute(t.db);
  return rows.reverse().map((r) => ({ period: r.period, count: Number(r.count) }));
}

/** A funnel's steps counted afresh: per option of the list field (in rank order), how many chose it. */
async function freshFunnel() {
  const { rows } = await sql<{ option: string | null; count: string }>`
    select ("values" -> ${String(c.fields.list.dataField.id)} #>> '{}') as option, count(*) as count
    from content_dossier
    where environment_id = ${c.environment.id} and def_dossier_id = ${c.client.id} and not archived
    group by 1`.execute(t.db);
  return [c.options.red, c.options.blue]
    .sort((a, b) => a.id - b.id)
    .map((o) => ({
      id: o.id,
      count: Number(rows.find((r) => r.option === String(o.id))?.count ?? 0),
    }));
}

async function freshSum() {
  const { rows } = await sql<{ sum: string | null; count: string }>`
    select sum(("values" ->> ${String(c.fields.amount.dataField.id)})::numeric) as sum, count(*) as count
    from content_dossier
    where environment_id = ${c.environment.id} and def_dossier_id = ${c.client.id} and not archived`.execute(
    t.db,
  );
  return { sum: rows[0]?.sum === null ? 0 : Number(rows[0]?.sum), count: Number(rows[0]?.count) };
}

const data = async (id: number, query = '') => {
  const response = await c.admin.get(`/api/mypageblock/${id}/data${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** The rollups (read directly: ready, not the SQL) and the blocks' answers equal the fresh counts. */
async function expectExact(step: string) {
  await indexJobsIdle(t.db);
  const [byDate, byCreation, sum] = groupings();
  for (const format of ['year_month', 'quarter', 'year'] as const) {
    const fresh = await freshCounts(false, format);
    const rolled = await rolledUpCounts(t.db, byDate as Grouping & { kind: 'count' }, format);
    expect(rolled, `${step}: rollup by date is ready`).not.toBeNull();
    const asRows = (rows: { period: string | null; option: string | null; count: string }[]) =>
      sorted(
        rows.map((r) => ({
          ...r,
          option: r.option === null ? null : Number(r.option),
          count: Number(r.count),
        })),
      );
    expect(asRows(rolled ?? []), `${step}: rollup by date, ${format}`).toEqual(fresh);
    expect(
      sorted((await data(blocks.byDate, `?date_format=${format}`)).rows),
      `${step}: block, ${format}`,
    ).toEqual(fresh);
    const freshCreation = await freshCounts(true, format);
    const rolledCreation = await rolledUpCounts(t.db, byCreation as Grouping & { kind: 'count' }, format);
    expect(asRows(rolledCreation ?? []), `${step}: rollup by creation, ${format}`).toEqual(freshCreation);
    expect(sorted((await data(blocks.byCreation, `?date_format=${format}`)).rows)).toEqual(freshCreation);
  }
  const freshTotal = await freshSum();
  const rolledSum = await rolledUpSum(t.db, sum as Grouping & { kind: 'sum' });
  expect(rolledSum, `${step}: sum rollup is ready`).not.toBeNull();
  expect({ sum: Number(rolledSum?.sum ?? 0), count: Number(rolledSum?.count) }, `${step}: sum`).toEqual(
    freshTotal,
  );
  expect(await data(blocks.sum), `${step}: sum block`).toEqual(freshTotal);

  const [, , , daysByDate, daysByCreation] = groupings();
  for (const period of ['week', 'month', 'year'] as const) {
    for (const [g, byCreation] of [
      [daysByDate, false],
      [daysByCreation, true],
    ] as const) {
      const rolled = await rolledUpPeriods(t.db, g as Grouping & { kind: 'day' }, PATTERNS[period]);
      expect(rolled, `${step}: day rollup is ready`).not.toBeNull();
      expect(rolled?.slice(-24), `${step}: days by ${byCreation ? 'creation' : 'date'}, ${period}`).toEqual(
        await freshPeriods(byCreation, period),
      );
    }
  }
  expect((await data(blocks.weeksByDate)).rows, `${step}: weeks block`).toEqual(
    await freshPeriods(false, 'week'),
  );
  expect((await data(blocks.monthsByCreation)).rows, `${step}: months block`).toEqual(
    await freshPeriods(true, 'month'),
  );
  const funnel = (await data(blocks.funnel)) as { steps: { id: number; count: number }[] };
  expect(
    funnel.steps.map((s) => ({ id: s.id, count: s.count })).sort((a, b) => a.id - b.id),
    `${step}: funnel`,
  ).toEqual(await freshFunnel());
  const [pie] = (await data(blocks.percentage)).charts as { total: number; part: number }[];
  expect({ total: pie.total, part: pie.part }, `${step}: percentage`).toEqual({
    total: freshTotal.count,
    part: freshTotal.count,
  });
}

const deltaRows = async () =>
  Number(
    (
      await t.db
        .selectFrom('dashboard_rollup_delta')
        .select(sql<string>`count(*)`.as('n'))
        .where('environment_id', '=', c.environment.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('dashboard rollups', () => {
  const ids: number[] = [];

  it('are earned by the first request, filled from the stored dossiers, and answer the blocks', async () => {
    const { red, blue } = c.options;
    ids.push(await create(values(red, '2026-01-15', 10)));
    ids.push(await create(values(red, '2026-01-31', '20.50')));
    ids.push(await create(values(blue, '2026-02-01', 5)));
    ids.push(await create(values(null, null, 100)));
    // the first requests answer by the SQL and earn the rollups in the background
    for (const id of Object.values(blocks)) await data(id);
    await indexJobsIdle(t.db);
    const earned = await t.db
      .selectFrom('dashboard_rollup')
      .select(['kind', 'ready'])
      .where('def_dossier_id', '=', c.client.id)
      .execute();
    // count by date, count by creation (the funnel's too), sum, days by date, days by creation
    expect(earned).toHaveLength(5);
    expect(earned.every((r) => r.ready)).toBe(true);
    await expectExact('earned');
    expect(await freshSum()).toEqual({ sum: 135.5, count: 4 });
  });

  it('follow creates and edits of the option, the date and the amount', async () => {
    const { red, blue } = c.options;
    ids.push(await create(values(blue, '2025-12-31', 7)));
    ids.push(await create(values(red, '2026-04-02', null)));
    // ISO week 2020-W53 of the year 2021
    ids.push(await create(values(blue, '2021-01-03', 1)));
    await expectExact('created');
    const edit = async (id: number, v: Record<string, unknown>) => {
      const response = await put(c.admin, `/api/contentdossier/${id}`, { values: v });
      expect(response.statusCode, response.body).toBe(200);
    };
    await edit(ids[0], { [key(c.fields.list.item)]: blue.id });
    await edit(ids[1], { [key(c.fields.date.item)]: '2026-05-05' });
    await edit(ids[2], { [key(c.fields.amount.item)]: '6.25' });
    await edit(ids[3], { [key(c.fields.list.item)]: red.id, [key(c.fields.date.item)]: '2026-03-01' });
    await expectExact('edited');
  });

  it('follow archive, delete, mass update, merge and bulk archive', async () => {
    const { red, blue } = c.options;
    expect((await c.admin.post(`/api/contentdossier/${ids[4]}/archive`)).statusCode).toBe(200);
    await expectExact('archived');
    expect((await c.admin.post(`/api/contentdossier/${ids[4]}/dearchive`)).statusCode).toBe(200);
    await expectExact('dearchived');
    expect((await c.admin.delete(`/api/contentdossier/${ids[5]}`)).statusCode).toBe(200);
    await expectExact('deleted');

    const more = [
      await create(values(red, '2026-06-01', 1)),
      await create(values(red, '2026-06-02', 2)),
      await create(values(null, '2026-07-01', 3)),
    ];
    const mass = await put(c.admin, '/api/contentdossier/massupdate', {
      defDossier: c.client.id,
      dossier_ids: [...more, ids[0]],
      update_values: { [key(c.fields.list.item)]: blue.id, [key(c.fields.date.item)]: '2026-08-08' },
    });
    expect(mass.statusCode, mass.body).toBe(200);
    await expectExact('mass update');

    const merged = await c.admin.post('/api/contentdossier/merge', {
      environment: c.environment.id,
      dossiers: { action: 'delete', ids: [more[0], more[1]] },
      mergeDossier: [
        { id: c.fields.name.item.id, use: 'left' },
        { id: c.fields.amount.item.id, use: 'right' },
      ],
    });
    expect(merged.statusCode, merged.body).toBe(201);
    await expectExact('merge deleting');
    const kept = await c.admin.post('/api/contentdossier/merge', {
      environment: c.environment.id,
      dossiers: { action: 'archive', ids: [more[2], ids[2]] },
      mergeDossier: [{ id: c.fields.name.item.id, use: 'left' }],
    });
    expect(kept.statusCode, kept.body).toBe(201);
    await expectExact('merge archiving');

    const bulk = await c.admin.post('/api/contentdossier/archive', {
      environment: c.environment.id,
      ids: [ids[0], ids[1]],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    await expectExact('bulk archive');
    const back = await c.admin.post('/api/contentdossier/dearchive', {
      environment: c.environment.id,
      ids: [ids[0]],
    });
    expect(back.statusCode, back.body).toBe(200);
    await expectExact('bulk dearchive');
  });

  it('keep no trace of a write that rolls back, and stay exact under concurrent writers', async () => {
    const { red, blue } = c.options;
    const before = await deltaRows();
    const targets = [await create(values(red, '2026-09-09', 9)), await create(values(red, '2026-09-10', 9))];
    await expectExact('before the failure');
    const afterCreates = await deltaRows();
    expect(afterCreates).toBeGreaterThan(before);
    // the second row's write fails: the first one's update and its deltas roll back with it
    const restore = await failDossierWrites(t.db, { id: targets[1] });
    try {
      const failed = await put(c.admin, '/api/contentdossier/massupdate', {
        defDossier: c.client.id,
        dossier_ids: targets,
        update_values: { [key(c.fields.list.item)]: blue.id, [key(c.fields.amount.item)]: 50 },
      });
      expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await restore();
    }
    expect(await deltaRows()).toBe(afterCreates);
    await expectExact('rolled back');

    // two mass updates of the same counters at once, then creates at once
    const batch = await Promise.all([1, 2, 3, 4].map((i) => create(values(red, `2026-10-0${i}`, i))));
    await Promise.all([
      put(c.admin, '/api/contentdossier/massupdate', {
        defDossier: c.client.id,
        dossier_ids: [batch[0], batch[1]],
        update_values: { [key(c.fields.list.item)]: blue.id, [key(c.fields.amount.item)]: 11 },
      }),
      put(c.admin, '/api/contentdossier/massupdate', {
        defDossier: c.client.id,
        dossier_ids: [batch[3], batch[2]],
        update_values: { [key(c.fields.list.item)]: blue.id, [key(c.fields.amount.item)]: 12 },
      }),
      ...[5, 6, 7].map((i) => create(values(blue, `2026-10-0${i}`, i))),
    ]).then((responses) => {
      for (const r of responses) if (typeof r !== 'number') expect(r.statusCode, r.body).toBe(200);
    });
    await expectExact('concurrent writers');
  });

  it('compact their deltas without changing a count', async () => {
    const [byDate] = groupings();
    const rollup = await t.db
      .selectFrom('dashboard_rollup')
      .select('id')
      .where('def_dossier_id', '=', c.client.id)
      .where('kind', '=', 'count')
      .where('date_field_id', '=', byDate.dateFieldId)
      .executeTakeFirstOrThrow();
    const rowsOf = async () =>
      Number(
        (
          await t.db
            .selectFrom('dashboard_rollup_delta')
            .select(sql<string>`count(*)`.as('n'))
            .where('rollup_id', '=', rollup.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await rowsOf();
    await compactRollup(t.db, c.environment.id, rollup.id);
    expect(await rowsOf()).toBeLessThan(before);
    await expectExact('compacted');
  });

  it('count a write that began before the rollup existed exactly once', async () => {
    const { red } = c.options;
    await t.db.deleteFrom('dashboard_rollup').where('def_dossier_id', '=', c.client.id).execute();
    // a rollup's deltas go with it
    expect(await deltaRows()).toBe(0);
    let earning: Promise<boolean> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('content_dossier')
        .values({
          environment_id: c.environment.id,
          def_dossier_id: c.client.id,
          summary: 'in flight',
          values: JSON.stringify({
            [key(c.fields.list.dataField)]: red.id,
            [key(c.fields.date.dataField)]: '2026-11-11',
            [key(c.fields.amount.dataField)]: 4,
          }) as never,
        })
        .execute();
      // PGlite has one connection: the fill then simply runs after this transaction
      earning = Promise.all(groupings().map((g) => earnRollup(t.db, g))).then((r) => r.every(Boolean));
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(await earning).toBe(true);
    await expectExact('earned beside a write');
  });

  it('are dropped when nobody read them for 30 days, and earned again when asked', async () => {
    const [byDate, byCreation] = groupings();
    await t.db
      .updateTable('dashboard_rollup')
      .set({ used_at: sql`now() - interval '31 days'` })
      .where('def_dossier_id', '=', c.client.id)
      .where('date_field_id', '=', byDate.dateFieldId)
      .execute();
    // the next earning in the environment sweeps it
    await t.db
      .deleteFrom('dashboard_rollup')
      .where('date_field_id', 'is', null)
      .where('kind', '=', 'count')
      .execute();
    expect(await earnRollup(t.db, byCreation)).toBe(true);
    const left = await t.db
      .selectFrom('dashboard_rollup')
      .select(['kind', 'date_field_id'])
      .where('def_dossier_id', '=', c.client.id)
      .execute();
    // the count by creation, the sum and the days by creation
    expect(left).toHaveLength(3);
    expect(left.some((r) => r.date_field_id === byDate.dateFieldId)).toBe(false);
    await data(blocks.byDate);
    await data(blocks.weeksByDate);
    await expectExact('earned again');
  });

  it('count the creation in Amsterdam time: past midnight there is the next day, month and year', async () => {
    await t.db
      .insertInto('content_dossier')
      .values({
        environment_id: c.environment.id,
        def_dossier_id: c.client.id,
        summary: 'new year in Amsterdam',
        values: JSON.stringify({ [key(c.fields.list.dataField)]: c.options.red.id }) as never,
        created_at: new Date('2025-12-31T23:30:00Z'),
      })
      .execute();
    await expectExact('created past midnight in Amsterdam');
  });

  it('leave a value the SQL cannot read to the SQL', async () => {
    const [, , sum, daysByDate] = groupings();
    await insertDossier(t, c.client, 'odd amount', { [key(c.fields.amount.dataField)]: 'not a number' });
    expect(await rolledUpSum(t.db, sum as Grouping & { kind: 'sum' })).toBeNull();
    await insertDossier(t, c.client, 'odd date', { [key(c.fields.date.dataField)]: '2026-02-30' });
    expect(await rolledUpPeriods(t.db, daysByDate as Grouping & { kind: 'day' }, 'YYYY')).toBeNull();
  });
});
