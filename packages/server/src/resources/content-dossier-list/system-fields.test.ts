import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataField, buildDefField, buildDisplayItem } from '../../../test/entity-factories';
import { buildDefDossier, buildEnvironment } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { indexJobsIdle } from '../../query/index-jobs';

// List columns of systemdate and systemuser fields: their values are the dossier's own columns
// (created_at / modified_at, created_by / modified_by), never stored values; the list shows, sorts
// and filters on those columns, as the detail page shows them.

let t: TestApp;
let admin: TestClient;
let adminId: number;
let otherId: number;
let envId: number;
let entityId: number;
const item: Record<string, number> = {};
const dossier: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const [a, o] = await Promise.all([t.signIn(), t.signIn()]);
  admin = a.client;
  adminId = a.user.id;
  otherId = o.user.id;
  const environment = await buildEnvironment(t.db, {
    members: [
      { user: a.user, credentials: ['environment-admin'] },
      { user: o.user, credentials: [] },
    ],
  });
  envId = environment.id;
  const entity = await buildDefDossier(t.db, envId, { name: 'Case' });
  entityId = entity.id;
  const column = async (name: string, type: string, settings: Record<string, unknown>) => {
    const base = await buildDefField(t.db, envId, { type, settings });
    const data = await buildDataField(t.db, entity, base.id, { name });
    item[name] = (await buildDisplayItem(t.db, entity, { dataFieldId: data.id, view: 'list' })).id;
  };
  await column('created', 'systemdate', {}); // created_at by default
  await column('changed', 'systemdate', { dossier_data: 'modified_at' });
  await column('author', 'systemuser', { dossier_data: 'created_by' });
  await column('editor', 'systemuser', { dossier_data: 'modified_by' });

  const insert = async (summary: string, created: string, modified: string, by: number) => {
    const row = await t.db
      .insertInto('content_dossier')
      .values({
        environment_id: envId,
        def_dossier_id: entity.id,
        summary,
        values: JSON.stringify({}),
        created_at: new Date(created),
        modified_at: new Date(modified),
        created_by: by,
        modified_by: by === adminId ? otherId : adminId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  dossier.a = await insert('A', '2026-01-01T10:00:00Z', '2026-02-05T10:00:00Z', adminId);
  dossier.b = await insert('B', '2026-01-03T10:00:00Z', '2026-02-01T10:00:00Z', otherId);
  dossier.c = await insert('C', '2026-01-02T23:30:00Z', '2026-02-03T10:00:00Z', adminId); // 3 January in Amsterdam
});

afterAll(async () => {
  await indexJobsIdle(t.db);
  await t.close();
});

async function list(params: Record<string, string | string[]>) {
  const search = new URLSearchParams({ defDossier: String(entityId), environment: String(envId) });
  for (const [key, value] of Object.entries(params))
    for (const one of Array.isArray(value) ? value : [value]) search.append(key, one);
  const response = await admin.get(`/api/contentdossier?${search}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const ids = (body: { results: { dossiers: { id: number }[] } }) => body.results.dossiers.map((d) => d.id);

describe('systemdate and systemuser list columns', () => {
  it('show the dossier dates and users', async () => {
    const body = await list({});
    expect(body.results.contents[String(dossier.a)]).toEqual({
      [item.created]: '2026-01-01T10:00:00.000Z',
      [item.changed]: '2026-02-05T10:00:00.000Z',
      [item.author]: adminId,
      [item.editor]: otherId,
    });
    expect(body.results.contents[String(dossier.b)][item.author]).toBe(otherId);
  });

  it('sort on those dates and users', async () => {
    const sorted = (id: number, order: string) => list({ 'sort[]': String(id), 'sortOrder[]': order });
    expect(ids(await sorted(item.created, 'ASC'))).toEqual([dossier.a, dossier.c, dossier.b]);
    expect(ids(await sorted(item.created, 'DESC'))).toEqual([dossier.b, dossier.c, dossier.a]);
    expect(ids(await sorted(item.changed, 'ASC'))).toEqual([dossier.b, dossier.c, dossier.a]);
    const byAuthor = ids(await sorted(item.author, 'ASC'));
    const [first, second] = adminId < otherId ? [dossier.a, dossier.b] : [dossier.b, dossier.a];
    expect(byAuthor.indexOf(first)).toBeLessThan(byAuthor.indexOf(second));
  });

  it('filter on those dates (Amsterdam days) and users', async () => {
    expect(ids(await list({ [item.created]: '2026-01-03' })).sort()).toEqual([dossier.b, dossier.c].sort());
    expect(ids(await list({ [item.created]: '2026-01-02', [`${item.created}_type`]: 'before' }))).toEqual([
      dossier.a,
    ]);
    expect(ids(await list({ [item.changed]: '2026-02-01' }))).toEqual([dossier.b]);
    expect(ids(await list({ [item.author]: String(otherId) }))).toEqual([dossier.b]);
    expect(ids(await list({ [item.editor]: String(otherId) })).sort()).toEqual([dossier.a, dossier.c].sort());
  });

  it('aggregate those dates', async () => {
    const body = await list({ [`${item.created}_aggregate`]: 'min', [`${item.changed}_aggregate`]: 'max' });
    expect(body.results.aggregations).toEqual(
      expect.arrayContaining([
        { id: item.created, aggregate: 'min', value: '2026-01-01T10:00:00.000Z' },
        { id: item.changed, aggregate: 'max', value: '2026-02-05T10:00:00.000Z' },
      ]),
    );
  });
});
