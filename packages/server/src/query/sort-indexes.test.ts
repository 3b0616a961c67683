import { sql } from 'kysely';
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
import { entityDossierPartition } from '../db/partitions';
import { type Column, columnOf } from './compile/columns';
import { syncFieldIndexes } from './field-indexes';
import { indexJobsIdle } from './index-jobs';
import { type ListParams, parseListParams } from './list-query';
import { buildSortIndex, LARGE_SET, MAX_PER_ENTITY, sortIndexFor, USES_BEFORE_BUILD } from './sort-indexes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An entity with a status list, a multi-select list, an amount and a due date, all in the list view. */
async function caseEntity() {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: `Cases ${Date.now()}` });
  const field = async (type: string, settings: Record<string, unknown> = {}) => {
    const base = await buildDefField(t.db, s.environment.id, { type, settings });
    const data = await buildDataField(t.db, entity, base.id);
    const item = await buildDisplayItem(t.db, entity, { dataFieldId: data.id, view: 'list' });
    return { base, data, item };
  };
  const status = await field('list');
  const tags = await field('list', { multiple: true });
  const amount = await field('amount');
  const due = await field('date');
  const options = [];
  for (const rank of [1, 2, 3]) options.push(await buildListOption(t.db, status.base.id, { rank }));
  return { s, entity, status, tags, amount, due, options };
}

const indexNames = async (entityId: number) =>
  (
    await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = ${await entityDossierPartition(t.db, entityId)}
        and indexname like ${`cdxc\\_${entityId}\\_%`} order by indexname`.execute(t.db)
  ).rows;

describe('sortIndexFor', () => {
  it('wants an index only for filters on one value followed by a sort on another field', async () => {
    const c = await caseEntity();
    const columns = new Map<number, Column>();
    for (const f of [c.status, c.tags, c.amount, c.due]) {
      const column = columnOf({ item: f.item, field: f.base, dataField: f.data, link: null });
      if (column) columns.set(f.item.id, column);
    }
    const parse = (query: Record<string, unknown>): ListParams => {
      const { params, errors } = parseListParams(query, {
        defDossierId: c.entity.id,
        environmentId: c.s.environment.id,
        filterable: columns,
        embedded: null,
        userId: c.s.memberId,
      });
      expect(errors).toEqual({});
      return params;
    };
    const sortDue = { 'sort[]': String(c.due.item.id), 'sortOrder[]': 'DESC' };
    const option = String(c.options[0].id);

    expect(sortIndexFor(parse({ [c.status.item.id]: option, ...sortDue }))).toEqual({
      name: `cdxc_${c.entity.id}_${c.status.data.id}_${c.due.data.id}`,
      fieldIds: [c.status.data.id, c.due.data.id],
      expressions: [`("values" -> '${c.status.data.id}')`, `("values" ->> '${c.due.data.id}')`],
    });
    // two equalities lead in field id order; a range does not count
    const both = sortIndexFor(parse({ [c.amount.item.id]: '12', [c.status.item.id]: option, ...sortDue }));
    const leading = [c.status.data.id, c.amount.data.id].sort((a, b) => a - b);
    expect(both?.fieldIds).toEqual([...leading, c.due.data.id]);
    expect(sortIndexFor(parse({ [`${c.amount.item.id}_min`]: '5', ...sortDue }))).toBeNull();
    // no sort (the field index already reads filter + id order), a sort on the filtered field itself,
    // several options, a multi-select list, two sorts: nothing to build
    expect(sortIndexFor(parse({ [c.status.item.id]: option }))).toBeNull();
    expect(
      sortIndexFor(parse({ [c.status.item.id]: option, 'sort[]': String(c.status.item.id) })),
    ).toBeNull();
    expect(
      sortIndexFor(parse({ [c.status.item.id]: `${option},${c.options[1].id}`, ...sortDue })),
    ).toBeNull();
    expect(sortIndexFor(parse({ [c.tags.item.id]: option, ...sortDue }))).toBeNull();
    expect(
      sortIndexFor(
        parse({
          [c.status.item.id]: option,
          'sort[]': [String(c.due.item.id), String(c.amount.item.id)],
        }),
      ),
    ).toBeNull();
  });
});

describe('sort indexes learnt from use', () => {
  it('a filter and sort asked often on a large set gets its index, which the page then reads', async () => {
    const c = await caseEntity();
    const [open] = c.options;
    const statuses = c.options.map((o) => o.id);
    // a third of the cases open, the others in the two other states
    await sql`insert into content_dossier (environment_id, def_dossier_id, summary, values)
      select ${c.s.environment.id}, ${c.entity.id}, 'Case ' || n,
        jsonb_build_object(${String(c.status.data.id)}::text, (${statuses}::int[])[n % 3 + 1],
          ${String(c.due.data.id)}::text, to_char(date '2026-01-01' + n, 'YYYY-MM-DD'))
      from generate_series(1, ${3 * LARGE_SET + 3}) n`.execute(t.db);
    await sql`analyze content_dossier`.execute(t.db);
    const url = `/api/contentdossier?defDossier=${c.entity.id}&${c.status.item.id}=${open.id}&sort[]=${c.due.item.id}&sortOrder[]=DESC&limit=10`;
    const name = `cdxc_${c.entity.id}_${c.status.data.id}_${c.due.data.id}`;

    for (let i = 1; i < USES_BEFORE_BUILD; i++) {
      const response = await c.s.admin.get(url);
      expect(response.statusCode, response.body).toBe(200);
    }
    await indexJobsIdle(t.db);
    expect(await indexNames(c.entity.id)).toEqual([]);

    const last = await c.s.admin.get(url);
    expect(last.json().results.dossiers[0].summary).toBe(`Case ${3 * LARGE_SET + 3}`);
    await indexJobsIdle(t.db);
    const built = await indexNames(c.entity.id);
    expect(built.map((i) => i.indexname)).toEqual([name]);
    expect(built[0].indexdef).toContain(`WHERE (def_dossier_id = ${c.entity.id})`);

    // the planner reads the page from it, in order
    await sql`set enable_seqscan = off`.execute(t.db);
    try {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from content_dossier
        where environment_id = ${sql.lit(c.s.environment.id)} and def_dossier_id = ${sql.lit(c.entity.id)} and ("values" -> ${sql.lit(String(c.status.data.id))}) = '${sql.raw(String(open.id))}'::jsonb
        order by ("values" ->> ${sql.lit(String(c.due.data.id))}) desc, id desc limit 10`.execute(t.db);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan, plan).toContain(name);
      expect(plan).not.toMatch(/Sort Key/);
    } finally {
      await sql`reset enable_seqscan`.execute(t.db);
    }

    // the due date leaves the list view: the sync drops the sort index with the field index
    await t.db.deleteFrom('display_item').where('id', '=', c.due.item.id).execute();
    const result = await syncFieldIndexes(t.db, c.entity.id);
    expect(result.dropped).toContain(name);
    expect(await indexNames(c.entity.id)).toEqual([]);
  });

  it('a small set never builds one, and an entity holds at most MAX_PER_ENTITY', async () => {
    const c = await caseEntity();
    const url = `/api/contentdossier?defDossier=${c.entity.id}&${c.status.item.id}=${c.options[0].id}&sort[]=${c.due.item.id}`;
    for (let i = 0; i < USES_BEFORE_BUILD + 2; i++) expect((await c.s.admin.get(url)).statusCode).toBe(200);
    await indexJobsIdle(t.db);
    expect(await indexNames(c.entity.id)).toEqual([]);

    const made = [];
    for (let i = 0; i <= MAX_PER_ENTITY; i++) {
      made.push(
        await buildSortIndex(t.db, c.entity.id, {
          name: `cdxc_${c.entity.id}_${c.status.data.id}_${9_000_000 + i}`,
          fieldIds: [c.status.data.id, 9_000_000 + i],
          expressions: [`("values" -> '${c.status.data.id}')`, `("values" ->> '${9_000_000 + i}')`],
        }),
      );
    }
    expect(made.filter(Boolean)).toHaveLength(MAX_PER_ENTITY);
    expect(made.at(-1)).toBe(false);
    expect(await indexNames(c.entity.id)).toHaveLength(MAX_PER_ENTITY);
    // fields no view uses: the next sync drops them all
    await syncFieldIndexes(t.db, c.entity.id);
    expect(await indexNames(c.entity.id)).toEqual([]);
  });
});
