import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDossier,
  buildListOption,
} from '../../test/entity-factories';
import { type AdminSetup, adminSetup } from '../../test/entity-test-setup';
import { buildDefDossier } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

// The counters of migration 2026-11-25T1600 answer a list over the whole entity: they must give what
// the scan gives after any mix of writes. Each case compares the two answers of the same request: one
// from the counters, one with the counted fields forgotten (so the list scans).

let t: TestApp;
let s: AdminSetup;
beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
});
afterAll(() => t.close());

async function optionEntity() {
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Counted' });
  const status = await buildDefField(t.db, s.environment.id, { type: 'list' });
  const tags = await buildDefField(t.db, s.environment.id, { type: 'list', settings: { multiple: true } });
  const option = async (fieldId: number, text: string) => (await buildListOption(t.db, fieldId, { text })).id;
  const [open, closed] = [await option(status.id, 'Open'), await option(status.id, 'Closed')];
  const [red, blue] = [await option(tags.id, 'Red'), await option(tags.id, 'Blue')];
  const statusData = await buildDataField(t.db, entity, status.id, { name: 'status' });
  const tagsData = await buildDataField(t.db, entity, tags.id, {
    name: 'tags',
    settings: { multiple: true },
  });
  const statusItem = await buildDisplayItem(t.db, entity, { dataFieldId: statusData.id, view: 'list' });
  const tagsItem = await buildDisplayItem(t.db, entity, { dataFieldId: tagsData.id, view: 'list' });
  return {
    entity,
    status: { data: statusData, item: statusItem, open, closed, base: status },
    tags: { data: tagsData, item: tagsItem, red, blue },
  };
}
type OptionEntity = Awaited<ReturnType<typeof optionEntity>>;

async function listed(e: OptionEntity, archived: string) {
  const query = new URLSearchParams({
    defDossier: String(e.entity.id),
    archived,
    [`${e.status.item.id}_aggregate`]: 'count',
    [`${e.tags.item.id}_aggregate`]: 'unique',
    limit: '1',
  });
  const response = await s.admin.get(`/api/contentdossier?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return { items: body.pager.items, aggregations: body.results.aggregations };
}

const counted = (e: OptionEntity) =>
  t.db
    .selectFrom('option_count_field')
    .select('field_id')
    .where('def_dossier_id', '=', e.entity.id)
    .execute();

test('a list over the whole entity counts from the counters exactly what a scan counts', async () => {
  const e = await optionEntity();
  expect((await counted(e)).map((r) => r.field_id).sort()).toEqual([e.status.data.id, e.tags.data.id].sort());
  const values = (status: unknown, tags: unknown) => ({
    [e.status.data.id]: status,
    [e.tags.data.id]: tags,
  });
  const ids: number[] = [];
  for (let i = 0; i < 12; i++)
    ids.push(
      await buildDossier(
        t.db,
        e.entity,
        `Row ${i}`,
        values(
          i % 3 === 0 ? e.status.closed : e.status.open,
          i % 2 ? [e.tags.red, e.tags.blue] : [e.tags.red],
        ),
      ),
    );
  // no value, a JSON null, a value of the wrong shape: none is an option, the first is no value at all
  await buildDossier(t.db, e.entity, 'Empty', {});
  await buildDossier(t.db, e.entity, 'Null', values(null, null));
  await buildDossier(t.db, e.entity, 'Odd', values('2', [e.tags.blue, 'x', e.tags.blue]));
  // updates of values and of the archived state, a delete, and one statement over several rows
  await t.db
    .updateTable('content_dossier')
    .set({ values: JSON.stringify(values(e.status.closed, [e.tags.blue])) })
    .where('id', '=', ids[1])
    .execute();
  await t.db
    .updateTable('content_dossier')
    .set({ archived: true })
    .where('id', 'in', ids.slice(2, 5))
    .execute();
  await t.db.deleteFrom('content_dossier').where('id', '=', ids[6]).execute();
  await sql`update content_dossier set summary = summary || '!' where def_dossier_id = ${e.entity.id}`.execute(
    t.db,
  );

  const fromCounters = {
    none: await listed(e, 'none'),
    both: await listed(e, 'both'),
    only: await listed(e, 'only'),
  };
  expect(fromCounters.none.items).toBe(11);
  expect(fromCounters.only.items).toBe(3);
  const status = fromCounters.both.aggregations.find((a: { id: number }) => a.id === e.status.item.id);
  expect(status).toEqual({
    id: e.status.item.id,
    aggregate: 'count',
    value: 13,
    options: [
      { id: e.status.open, total: 7 },
      { id: e.status.closed, total: 4 },
    ],
  });

  // the same requests answered by a scan
  await t.db.deleteFrom('option_count_field').where('def_dossier_id', '=', e.entity.id).execute();
  expect(
    await t.db.selectFrom('option_count').selectAll().where('def_dossier_id', '=', e.entity.id).execute(),
  ).toEqual([]);
  for (const archived of ['none', 'both', 'only'] as const)
    expect(await listed(e, archived), archived).toEqual(fromCounters[archived]);
});

test('a field that stops being a list is no longer counted, and an entity takes its counters along', async () => {
  const e = await optionEntity();
  await buildDossier(t.db, e.entity, 'One', { [e.status.data.id]: e.status.open });
  await t.db.updateTable('def_field').set({ type: 'text' }).where('id', '=', e.status.base.id).execute();
  expect((await counted(e)).map((r) => r.field_id)).toEqual([e.tags.data.id]);
  // back to a list: not counted again (values written meanwhile were not counted), the list scans
  await t.db.updateTable('def_field').set({ type: 'list' }).where('id', '=', e.status.base.id).execute();
  expect((await counted(e)).map((r) => r.field_id)).toEqual([e.tags.data.id]);
  const both = await listed(e, 'none');
  expect(both.aggregations.find((a: { id: number }) => a.id === e.status.item.id).options).toEqual([
    { id: e.status.open, total: 1 },
  ]);

  await t.db.deleteFrom('def_dossier').where('id', '=', e.entity.id).execute();
  for (const table of ['entity_dossier_count', 'option_count_field', 'option_count'] as const)
    expect(
      await t.db.selectFrom(table).selectAll().where('def_dossier_id', '=', e.entity.id).execute(),
    ).toEqual([]);
});
