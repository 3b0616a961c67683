import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildListOption,
} from '../../test/entity-factories';
import { adminSetup } from '../../test/entity-test-setup';
import { buildDefDossier } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { dossierPartition } from '../db/partitions';
import { deleteDefDossier } from '../resources/def-dossier/service';
import { syncFieldIndexes } from './field-indexes';
import { indexJobsIdle } from './index-jobs';
import { forgetProjection, readyProjection, syncProjection } from './projection';
import {
  executeOnSet,
  noteProjectedUse,
  type ProjectedSet,
  rewriteForProjection,
  USES_BEFORE_BUILD,
} from './projection-query';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ROWS = 4000;

/**
 * An entity of ROWS cases in the list view: a status (options 1-3 in turn), a price (n), hours
 * (n mod 7), a due date and a title (text: not projected).
 */
async function largeEntity() {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: `Large ${Date.now()}` });
  const field = async (type: string) => {
    const base = await buildDefField(t.db, s.environment.id, { type });
    const data = await buildDataField(t.db, entity, base.id);
    const item = await buildDisplayItem(t.db, entity, { dataFieldId: data.id, view: 'list' });
    const edit = await buildDisplayItem(t.db, entity, { dataFieldId: data.id, view: 'edit' });
    return { base, data, item, edit };
  };
  const status = await field('list');
  const price = await field('amount');
  const hours = await field('amount');
  const due = await field('date');
  const title = await field('text');
  const options = [];
  for (const rank of [1, 2, 3]) options.push(await buildListOption(t.db, status.base.id, { rank }));
  const [o1, o2, o3] = options.map((o) => o.id);
  await sql`insert into content_dossier (environment_id, def_dossier_id, summary, "values")
    select ${s.environment.id}, ${entity.id}, 'Case ' || n, jsonb_build_object(
      ${String(status.data.id)}::text, (array[${o1}::int, ${o2}::int, ${o3}::int])[n % 3 + 1],
      ${String(price.data.id)}::text, n, ${String(hours.data.id)}::text, n % 7,
      ${String(due.data.id)}::text, to_char(date '2026-01-01' + n, 'YYYY-MM-DD'),
      ${String(title.data.id)}::text, 'Title ' || n)
    from generate_series(1, ${ROWS}) n`.execute(t.db);
  await syncFieldIndexes(t.db, entity.id);
  return { s, entity, status, price, hours, due, title, options };
}

type Large = Awaited<ReturnType<typeof largeEntity>>;

const projectionTables = async (entityId: number) =>
  (
    await sql<{ name: string }>`select c.relname as name from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
        and c.relname like ${`cdp\\_${entityId}\\_%`} order by 1`.execute(t.db)
  ).rows.map((r) => r.name);

/** The list call's total and aggregations (sum of price, average of hours, count per status). */
async function aggregated(c: Large, filter: string) {
  const response = await c.s.admin.get(
    `/api/contentdossier?defDossier=${c.entity.id}&limit=5&${filter}` +
      `&${c.price.item.id}_aggregate=sum&${c.hours.item.id}_aggregate=avg&${c.status.item.id}_aggregate=count`,
  );
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  const of = (itemId: number) =>
    body.results.aggregations.find((a: { id: number }) => a.id === itemId) as {
      value: number;
      options?: { id: number; total: number }[];
    };
  return {
    total: body.pager.items as number,
    sum: of(c.price.item.id).value,
    avg: Number(of(c.hours.item.id).value.toFixed(6)),
    options: of(c.status.item.id).options,
  };
}

/** The same figures computed here from the rows, as the list must answer them. */
async function expected(c: Large, where: (n: number) => boolean, archived: Set<number>) {
  const rows = Array.from({ length: ROWS }, (_, i) => i + 1).filter((n) => where(n) && !archived.has(n));
  const perOption = new Map<number, number>();
  for (const n of rows) {
    const option = c.options[n % 3].id;
    perOption.set(option, (perOption.get(option) ?? 0) + 1);
  }
  return {
    total: rows.length,
    sum: rows.reduce((a, n) => a + n, 0),
    avg: Number((rows.reduce((a, n) => a + (n % 7), 0) / rows.length).toFixed(6)),
    options: [...perOption]
      .map(([id, total]) => ({ id, total }))
      .sort((a, b) => b.total - a.total || a.id - b.id),
  };
}

describe('the projection of a large entity', () => {
  it('holds every dossier, follows every write, and answers the list aggregations as the dossiers do', async () => {
    const c = await largeEntity();
    expect(await projectionTables(c.entity.id)).toEqual([]);
    // below its threshold an entity gets none
    expect((await syncProjection(t.db, c.entity.id, { from: ROWS + 1 })).built).toBeNull();
    const { built } = await syncProjection(t.db, c.entity.id, { from: ROWS });
    expect(built).toMatch(new RegExp(`^cdp_${c.entity.id}_[0-9a-f]{10}$`));
    expect(await projectionTables(c.entity.id)).toEqual([built]);
    const projection = await readyProjection(t.db, c.s.environment.id, c.entity.id);
    // numbers, dates and options; the title (text) stays out
    expect(projection?.fields.map((f) => f.dataFieldId).sort()).toEqual(
      [c.status.data.id, c.price.data.id, c.hours.data.id, c.due.data.id].sort(),
    );
    const column = (id: number) => `f${id}`;
    const copied = await sql<{ n: string; price: string }>`select count(*) as n,
      sum(${sql.ref(column(c.price.data.id))}) as price from ${sql.table(built as string)}`.execute(t.db);
    expect(Number(copied.rows[0].n)).toBe(ROWS);
    expect(Number(copied.rows[0].price)).toBe((ROWS * (ROWS + 1)) / 2);

    const o1 = c.options[0].id;
    const filter = `${c.status.item.id}=${o1}&${c.price.item.id}_min=100&${c.price.item.id}_max=3900`;
    const inFilter = (n: number) => c.options[n % 3].id === o1 && n >= 100 && n <= 3900;
    const archived = new Set<number>();
    expect(await aggregated(c, filter)).toEqual(await expected(c, inFilter, archived));

    // writes: a price changed, a dossier archived, one deleted, one created through the API
    const idOf = async (n: number) =>
      (
        await t.db
          .selectFrom('content_dossier')
          .select('id')
          .where('def_dossier_id', '=', c.entity.id)
          .where('summary', '=', `Case ${n}`)
          .executeTakeFirstOrThrow()
      ).id;
    // n = 102 has option 1 (102 % 3 = 0): moved out of the price range
    await sql`update content_dossier set "values" = jsonb_set("values", ${sql.lit(`{${c.price.data.id}}`)}, '5000')
      where id = ${await idOf(102)}`.execute(t.db);
    await t.db
      .updateTable('content_dossier')
      .set({ archived: true })
      .where('id', '=', await idOf(105))
      .execute();
    archived.add(105);
    await t.db
      .deleteFrom('content_dossier')
      .where('id', '=', await idOf(108))
      .execute();
    const created = await c.s.admin.post('/api/contentdossier', {
      defDossier: c.entity.id,
      values: { [c.status.edit.id]: o1, [c.price.edit.id]: '200', [c.hours.edit.id]: '3' },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const afterWrites = await expected(c, (n) => inFilter(n) && n !== 102 && n !== 108, archived);
    const withCreated = {
      ...afterWrites,
      total: afterWrites.total + 1,
      sum: afterWrites.sum + 200,
      avg: Number(((afterWrites.avg * afterWrites.total + 3) / (afterWrites.total + 1)).toFixed(6)),
      options: afterWrites.options.map((o) => (o.id === o1 ? { ...o, total: o.total + 1 } : o)),
    };
    expect(await aggregated(c, filter)).toEqual(withCreated);
    const { rows: rowCount } = await sql<{
      n: string;
    }>`select count(*) as n from ${sql.table(built as string)}`.execute(t.db);
    expect(Number(rowCount[0].n)).toBe(ROWS); // one deleted, one created

    // the same shape asked USES_BEFORE_BUILD times, with the sum of the price only, earns an index
    // that holds every projected column: the average of the hours is answered from it too
    for (let i = 0; i < USES_BEFORE_BUILD; i++) {
      const response = await c.s.admin.get(
        `/api/contentdossier?defDossier=${c.entity.id}&limit=5&${c.status.item.id}=${o1}` +
          `&${c.price.item.id}_min=${100 + i}&${c.price.item.id}_max=3900&${c.price.item.id}_aggregate=sum`,
      );
      expect(response.statusCode, response.body).toBe(200);
    }
    await indexJobsIdle(t.db);
    const { rows: indexes } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where schemaname = current_schema() and tablename = ${built} and indexname like 'cdpx\\_%'`.execute(
      t.db,
    );
    expect(indexes).toHaveLength(1);
    expect(indexes[0].indexdef).toContain(
      `(${column(c.status.data.id)}, ${column(c.price.data.id)}) INCLUDE (`,
    );
    expect(indexes[0].indexdef).toContain(column(c.hours.data.id));
    expect(indexes[0].indexdef).toContain(column(c.due.data.id));
    // and answers the same
    expect(await aggregated(c, filter)).toEqual(withCreated);
    // the index holds every column the statement reads (whether the planner prefers it also depends on
    // how much of the table the last vacuum could mark all-visible, which other tests' transactions move)
    const plan = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select count(*),
          sum(${sql.ref(column(c.price.data.id))}), avg(${sql.ref(column(c.hours.data.id))})
        from ${sql.table(built as string)} p
        where environment_id = ${sql.lit(c.s.environment.id)} and def_dossier_id = ${sql.lit(c.entity.id)}
          and not archived and ${sql.ref(column(c.status.data.id))} = ${sql.lit(String(o1))}::jsonb
          and ${sql.ref(column(c.price.data.id))} between 100 and 3900`.execute(trx);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('Index Only Scan');

    // a filter on the title (not projected) is answered from the dossiers, with the same figures
    const titled = await aggregated(c, `${filter}&${c.title.item.id}=Title 1`);
    expect(titled).toEqual(
      await expected(c, (n) => inFilter(n) && String(n).startsWith('1') && n !== 102 && n !== 108, archived),
    );

    // the entity deleted: its projection goes with it
    await t.db.deleteFrom('display_item').where('def_dossier_id', '=', c.entity.id).execute();
    await deleteDefDossier(t.db, c.entity);
    expect(await projectionTables(c.entity.id)).toEqual([]);
  });

  it('a scan a request waits for reads the projection with parallel workers from a smaller set on; an index-only read stays on one core', async () => {
    const c = await largeEntity();
    await syncProjection(t.db, c.entity.id, { from: ROWS });
    const projection = await readyProjection(t.db, c.s.environment.id, c.entity.id);
    const set = { projection: projection!, keys: [], includes: [] };
    const settingOn = async (options?: { waitedFor: boolean }, on: ProjectedSet = set) => {
      const statement = CompiledQuery.raw(
        `select current_setting('parallel_setup_cost') as cost from "${dossierPartition(c.s.environment.id)}" as "content_dossier" where "content_dossier"."def_dossier_id" = $1 limit 1`,
        [c.entity.id],
      );
      const [row] = await executeOnSet<{ cost: string }>(t.db, on, { compile: () => statement }, options);
      return row.cost;
    };
    const { rows } = await sql<{
      cost: string;
    }>`select current_setting('parallel_setup_cost') as cost`.execute(t.db);
    expect(await settingOn({ waitedFor: true })).toBe('300');
    // a background statement keeps the connection's setting, and the setting ends with the statement
    expect(await settingOn()).toBe(rows[0].cost);
    expect(rows[0].cost).not.toBe('300');

    // once an index of the projection covers the set, a request's statement keeps the setting too
    const key = projection!.fields[0].column;
    for (let i = 0; i < USES_BEFORE_BUILD; i++)
      noteProjectedUse(t.db, { projection: projection!, keys: [key], includes: [] }, { concurrently: false });
    await indexJobsIdle(t.db);
    forgetProjection(t.db, c.entity.id);
    const indexed = await readyProjection(t.db, c.s.environment.id, c.entity.id);
    expect(indexed!.indexes.map((index) => index.keys)).toEqual([[key]]);
    expect(await settingOn({ waitedFor: true }, { projection: indexed!, keys: [key], includes: [] })).toBe(
      rows[0].cost,
    );
  });

  it('a new set of indexed fields makes a new projection; no indexed number, date or option field, none', async () => {
    const c = await largeEntity();
    const first = (await syncProjection(t.db, c.entity.id, { from: 1 })).built;
    expect(first).not.toBeNull();
    // unchanged: kept
    expect(await syncProjection(t.db, c.entity.id, { from: 1 })).toEqual({ built: null, dropped: [] });
    await t.db.deleteFrom('display_item').where('id', '=', c.hours.item.id).execute();
    const second = await syncProjection(t.db, c.entity.id, { from: 1 });
    expect(second.built).not.toBe(first);
    expect(second.dropped).toEqual([first]);
    expect((await readyProjection(t.db, c.s.environment.id, c.entity.id))?.fields).toHaveLength(3);
    await t.db
      .deleteFrom('display_item')
      .where('id', 'in', [c.status.item.id, c.price.item.id, c.due.item.id])
      .execute();
    expect(await syncProjection(t.db, c.entity.id, { from: 1 })).toEqual({
      built: null,
      dropped: [second.built],
    });
    expect(await projectionTables(c.entity.id)).toEqual([]);
  });
  it('a build that fails leaves no table and no trigger behind, and writes go on', async () => {
    const s = await adminSetup(t);
    const entity = await buildDefDossier(t.db, s.environment.id, { name: `Broken ${Date.now()}` });
    const base = await buildDefField(t.db, s.environment.id, { type: 'amount' });
    const data = await buildDataField(t.db, entity, base.id);
    await buildDisplayItem(t.db, entity, { dataFieldId: data.id, view: 'list' });
    // a value no number cast reads (no field index yet to refuse it)
    await sql`insert into content_dossier (environment_id, def_dossier_id, summary, "values")
      values (${s.environment.id}, ${entity.id}, 'Odd', jsonb_build_object(${String(data.id)}::text, 'not a number'))`.execute(
      t.db,
    );
    await expect(syncProjection(t.db, entity.id, { from: 1 })).rejects.toThrow(/numeric/);
    expect(await projectionTables(entity.id)).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_trigger
      where tgname like ${`cdp\\_${entity.id}\\_%`}`.execute(t.db);
    expect(rows[0].n).toBe(0);
    // a trigger left behind would fail this write on the cast
    await sql`update content_dossier set "values" = "values" || '{"x": 1}' where def_dossier_id = ${entity.id}`.execute(
      t.db,
    );
  });
});

describe('rewriteForProjection', () => {
  const projection = {
    table: 'cdp_7_abc',
    environmentId: 1,
    defDossierId: 7,
    fields: [{ dataFieldId: 3, column: 'f3', expression: `(("values" ->> '3')::numeric)` }],
    indexes: [],
  };
  const compiled = (text: string) => ({ sql: text, parameters: [1], query: {} }) as never;

  it('reads the projection under the dossier alias, each field from its column', () => {
    const rewritten = rewriteForProjection(
      compiled(
        `select sum((("values" ->> '3')::numeric)) from "content_dossier_e1" as "content_dossier" where "content_dossier"."environment_id" = $1 and ((content_dossier."values" ->> '3')::numeric) > 2`,
      ),
      projection,
    );
    expect(rewritten?.query.sql).toBe(
      `select sum("content_dossier"."f3") from "cdp_7_abc" as "content_dossier" where "content_dossier"."environment_id" = $1 and "content_dossier"."f3" > 2`,
    );
    expect(rewritten?.columns.sort()).toEqual(['environment_id', 'f3']);
  });

  it('leaves a statement that reads any other value or column of the dossier', () => {
    for (const text of [
      `select count(*) from "content_dossier_e1" as "content_dossier" where (content_dossier."values" ->> '4') = $1`,
      `select count(*) from "content_dossier_e1" as "content_dossier" where content_dossier.summary ilike $1`,
      `select count(*) from "content_dossier_e1" as "content_dossier" where "content_dossier"."created_at" > $1`,
      `select count(*) from "content_dossier_e1" as "content_dossier" where id in (select id from "content_dossier_e1" as "content_dossier")`,
    ])
      expect(rewriteForProjection(compiled(text), projection), text).toBeNull();
    // a linked dossier's values (another alias) are not the listed dossier's
    expect(
      rewriteForProjection(
        compiled(
          `select count(*) from "content_dossier_e1" as "content_dossier" where "content_dossier"."id" in (select cl.parent_id from "content_link_e1" cl join "content_dossier_e1" l1_1 on l1_1.id = cl.child_id where (l1_1."values" ->> '4') = $1)`,
        ),
        projection,
      ),
    ).not.toBeNull();
  });
});
