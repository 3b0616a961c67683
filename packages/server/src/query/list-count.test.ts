import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildDisplayItem } from '../../test/entity-factories';
import { adminSetup } from '../../test/entity-test-setup';
import { buildDefDossier } from '../../test/factories';
import { statementsOf } from '../../test/statements';
import { createTestApp, type TestApp } from '../../test/test-app';
import { EXACT_UP_TO } from './list-count';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('a large filtered total asked for the first time is estimated, then exact from the background count', async () => {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Many' });
  const many = EXACT_UP_TO + 250;
  await sql`insert into content_dossier (environment_id, def_dossier_id, summary)
    select ${s.environment.id}, ${entity.id}, 'Row ' || n from generate_series(1, ${many}) n`.execute(t.db);
  await sql`analyze content_dossier`.execute(t.db);
  const list = async (page = 0) => {
    const response = await s.admin.get(`/api/contentdossier?defDossier=${entity.id}&summary=Ro&page=${page}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().pager;
  };
  // with an aggregation asked for, its scan counts the set: exact at once, and cached for paging
  const created = await buildDisplayItem(t.db, entity, {
    view: 'list',
    settings: { dossier_data: 'created_at' },
  });
  const aggregated = await s.admin.get(
    `/api/contentdossier?defDossier=${entity.id}&summary=Row&${created.id}_aggregate=max&limit=10`,
  );
  expect(aggregated.statusCode, aggregated.body).toBe(200);
  expect(aggregated.json().pager).toEqual({
    current: 0,
    pages: Math.ceil(many / 10),
    items: many,
    limit: 10,
  });
  const paged = await s.admin.get(`/api/contentdossier?defDossier=${entity.id}&summary=Row&page=3`);
  expect(paged.json().pager).toEqual({ current: 3, pages: Math.ceil(many / 50), items: many, limit: 50 });

  const first = await list();
  expect(first.estimated).toBe(true);
  expect(first.items).toBeGreaterThan(EXACT_UP_TO);
  // the exact count has been started; the next request gets it as soon as it is there
  await expect.poll(async () => (await list(1)).estimated ?? false, { timeout: 10_000 }).toBe(false);
  expect(await list(2)).toEqual({ current: 2, pages: Math.ceil(many / 50), items: many, limit: 50 });

  // the whole entity's total is its counter (query/dossier-counts.ts): exact at once
  const whole = await s.admin.get(`/api/contentdossier?defDossier=${entity.id}&page=1`);
  expect(whole.json().pager).toEqual({ current: 1, pages: Math.ceil(many / 50), items: many, limit: 50 });
  // read by the page's own statement, not by one of its own after the page
  const sent = await statementsOf(() => s.admin.get(`/api/contentdossier?defDossier=${entity.id}&page=1`));
  const counterReads = sent.filter((text) => text.includes('entity_dossier_count'));
  expect(counterReads).toHaveLength(1);
  expect(counterReads[0]).toContain('v.versions');
  // each archived state its own total, and a write moves them
  await sql`update content_dossier set archived = true
    where id = (select min(id) from content_dossier where def_dossier_id = ${entity.id})`.execute(t.db);
  const wholeTotal = async (archived: string) => {
    const response = await s.admin.get(`/api/contentdossier?defDossier=${entity.id}&archived=${archived}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().pager.items;
  };
  expect([await wholeTotal('none'), await wholeTotal('only'), await wholeTotal('both')]).toEqual([
    many - 1,
    1,
    many,
  ]);

  // a small total is always exact
  const few = await s.admin.get(`/api/contentdossier?defDossier=${entity.id}&summary=Row 124`);
  expect(few.json().pager).toEqual({ current: 0, pages: 1, items: 11, limit: 50 });
});
