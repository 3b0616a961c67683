import { FORBIDDEN_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { failDossierWrites } from '../../../test/fail-writes';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, insertDossier } from './fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const archivedOf = async (ids: number[]) =>
  (
    await t.db
      .selectFrom('content_dossier')
      .select(['id', 'archived'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()
  ).map((r) => r.archived);
const archiveLogs = async (ids: number[]) =>
  (
    await t.db
      .selectFrom('dossier_log')
      .select('id')
      .where('content_dossier_id', 'in', ids)
      .where('type', '=', 'archive')
      .execute()
  ).length;

async function clients(s: DossierSetup, n: number) {
  await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await insertDossier(t, s.client, `Client ${i}`));
  return ids;
}

describe('bulk archive and dearchive of a selection', () => {
  test('needs archive; another environment unknown; unknown ids reported, the rest archived and logged', async () => {
    const s = await dossierSetup(t);
    const ids = await clients(s, 3);
    const body = { environment: s.environment.id, ids };
    await s.grant(s.client, ['show']);
    const refused = await s.member.post('/api/contentdossier/archive', body);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({
      done: [],
      failed: ids.map((id) => ({ id, message: FORBIDDEN_MESSAGE })),
    });
    expect(await archivedOf(ids)).toEqual([false, false, false]);
    expect((await s.outsider.post('/api/contentdossier/archive', body)).statusCode).toBe(404);
    expect(
      (await s.outsider.post('/api/contentdossier/archive', { environment: s.otherEnvironment.id, ids }))
        .statusCode,
    ).toBe(404);
    await s.grant(s.client, ['show', 'archive']);
    const ok = await s.member.post('/api/contentdossier/archive', { ...body, ids: [...ids, 2_000_000_000] });
    expect(ok.json()).toEqual({ done: ids, failed: [{ id: 2_000_000_000, message: 'Not found' }] });
    expect(await archivedOf(ids)).toEqual([true, true, true]);
    expect(await archiveLogs(ids)).toBe(3);
    const back = await s.member.post('/api/contentdossier/dearchive', body);
    expect(back.json()).toEqual({ done: ids, failed: [] });
    expect(await archivedOf(ids)).toEqual([false, false, false]);
  });

  test('the cascade of links whose rule is archive, as one dossier archive does', async () => {
    const s = await dossierSetup(t);
    const [a, b] = await clients(s, 2);
    const [p1, p2] = s.projectsDossiers;
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.project.id).execute();
    await t.db
      .updateTable('def_dossier_link')
      .set({ archive_cascade_rule: 'archive' })
      .where('id', '=', s.links.projects.id)
      .execute();
    await t.db
      .insertInto('content_link')
      .values([
        {
          environment_id: s.environment.id,
          link_id: s.links.projects.id,
          parent_id: a,
          child_id: p1,
          rank: 0,
        },
        { environment_id: s.environment.id, link_id: s.links.lead.id, parent_id: b, child_id: p2, rank: 0 },
      ])
      .execute();
    const ok = await s.admin.post('/api/contentdossier/archive', {
      environment: s.environment.id,
      ids: [a, b],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // p1 through projects (archive); p2 only through lead (no rule)
    expect(await archivedOf([p1, p2])).toEqual([true, false]);
    expect(await archivedOf([a, b])).toEqual([true, true]);
  });

  test('a failure while writing leaves every dossier and the log as they were', async () => {
    const s = await dossierSetup(t);
    const ids = await clients(s, 3);
    const restore = await failDossierWrites(t.db, { id: ids[2] });
    try {
      const failed = await s.admin.post('/api/contentdossier/archive', {
        environment: s.environment.id,
        ids,
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await archivedOf(ids)).toEqual([false, false, false]);
    expect(await archiveLogs(ids)).toBe(0);
  });
});
