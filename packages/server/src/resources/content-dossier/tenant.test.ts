import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addMember, buildDefDossier, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import type { UserRow } from '../../db/schema';
import { HttpError } from '../../http-errors';
import { openEntityScope } from '../../policy/entity';
import { openFile } from '../file/service';
import { type DossierSetup, dossierSetup, key } from './fixture';
import { childrenThrough, linkedIds } from './links';
import { marks, setMark } from './marks';
import { credentialAllowed, dossierContent, openDossier, tabsAllowed } from './read-model';
import { refreshSummaries } from './summary-refresh';

// Every read of a dossier, link, log or file row by id filters on environment_id as well
// (ARCHITECTURE, data model), so an id of one environment finds nothing when asked with another's,
// below the routes too.

let t: TestApp;
let s: DossierSetup;
let dossierId: number;
let fileId: number;
/** environment admins of the dossier's environment and of the other one; a super admin */
let insider: UserRow;
let outsider: UserRow;
let superAdmin: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  s = await dossierSetup(t);
  insider = await buildUser(t.db);
  outsider = await buildUser(t.db);
  superAdmin = await buildUser(t.db, { roles: ['ROLE_ADMIN'] });
  await addMember(t.db, s.environment.id, { user: insider, credentials: ['environment-admin'] });
  await addMember(t.db, s.otherEnvironment.id, { user: outsider, credentials: ['environment-admin'] });
  const created = await s.admin.post('/api/contentdossier', {
    defDossier: s.client.id,
    values: { [key(s.fields.name.item)]: 'Tenant', [key(s.links.projectsItem)]: [s.projectsDossiers[0]] },
  });
  expect(created.statusCode, created.body).toBe(201);
  dossierId = created.json().id;
  await t.db
    .updateTable('def_dossier_link')
    .set({ cascade_rule: 'delete' })
    .where('id', '=', s.links.projects.id)
    .execute();
  const file = await t.db
    .insertInto('file')
    .values({
      environment_id: s.environment.id,
      name: 'a.txt',
      mime: 'text/plain',
      size: 1,
      created_by: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  fileId = file.id;
});
afterAll(() => t.close());

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof HttpError ? error.statusCode : 500),
  );

describe('a read by id with another environment finds nothing', () => {
  test('opening a dossier or a file: found in its environment, 404 from another', async () => {
    const { dossier } = await openDossier(t.db, insider, dossierId, 'show');
    expect(Number(dossier.id)).toBe(dossierId);
    expect(await statusOf(openDossier(t.db, outsider, dossierId, 'show'))).toBe(404);
    // a super admin may open every environment
    expect(await statusOf(openDossier(t.db, superAdmin, dossierId, 'show'))).toBe(200);

    expect((await openFile(t.db, insider, fileId)).id).toBe(fileId);
    expect(await statusOf(openFile(t.db, outsider, fileId))).toBe(404);
    expect(await statusOf(openFile(t.db, superAdmin, fileId))).toBe(200);
  });

  test('links and the children a cascade reaches', async () => {
    const [p1] = s.projectsDossiers;
    const link = s.links.projects;
    const all = () => true;
    expect(await linkedIds(t.db, s.environment.id, dossierId, link)).toEqual([p1]);
    expect(await linkedIds(t.db, s.otherEnvironment.id, dossierId, link)).toEqual([]);
    expect(await childrenThrough(t.db, s.environment.id, s.client.id, dossierId, all)).toEqual([
      { link: expect.objectContaining({ id: link.id }), children: [{ id: p1, entityId: s.project.id }] },
    ]);
    expect(await childrenThrough(t.db, s.otherEnvironment.id, s.client.id, dossierId, all)).toEqual([]);
  });

  test("a dossier's content, marks, tabs and credentials", async () => {
    const { dossier, ...scope } = await openDossier(t.db, insider, dossierId, 'show');
    const items = [s.links.projectsItem].map((item) => ({
      item: { ...item, translations: [] },
      dataField: null,
      field: null,
      link: s.links.projects,
    })) as unknown as Parameters<typeof dossierContent>[3];
    const content = await dossierContent(t.db, scope.access, dossier, items);
    expect(content[key(s.links.projectsItem)]).toEqual([
      expect.objectContaining({ id: s.projectsDossiers[0] }),
    ]);
    const elsewhere = { ...dossier, environment_id: s.otherEnvironment.id };
    expect((await dossierContent(t.db, scope.access, elsewhere, items))[key(s.links.projectsItem)]).toEqual(
      [],
    );

    await setMark(t.db, 'favourite', dossier, insider.id, true);
    expect(await marks(t.db, s.environment.id, insider.id, dossierId)).toEqual({
      favorite: true,
      subscribed: false,
    });
    expect(await marks(t.db, s.otherEnvironment.id, insider.id, dossierId)).toEqual({
      favorite: false,
      subscribed: false,
    });
    // switching off with another environment's row leaves the mark
    await setMark(t.db, 'favourite', elsewhere, insider.id, false);
    expect((await marks(t.db, s.environment.id, insider.id, dossierId)).favorite).toBe(true);

    // a super admin's scope on an entity of the other environment
    const otherEntity = await buildDefDossier(t.db, s.otherEnvironment.id, { name: 'Other' });
    const otherScope = await openEntityScope(t.db, superAdmin, otherEntity.id);
    expect(await tabsAllowed(t.db, otherScope, [dossierId])).toEqual([
      { id: dossierId, tabs_allowed: false },
    ]);
    expect(await credentialAllowed(t.db, otherScope, 'show', dossierId)).toBe(false);
    expect(await credentialAllowed(t.db, scope, 'show', dossierId)).toBe(true);
  });

  test('summaries are rewritten only in their own environment', async () => {
    const stored = async () =>
      (
        await t.db
          .selectFrom('content_dossier')
          .select('summary')
          .where('id', '=', dossierId)
          .executeTakeFirstOrThrow()
      ).summary;
    const summary = await stored();
    await t.db.updateTable('content_dossier').set({ summary: 'stale' }).where('id', '=', dossierId).execute();
    await refreshSummaries(t.db, { id: s.client.id, environment_id: s.otherEnvironment.id });
    expect(await stored()).toBe('stale');
    await refreshSummaries(t.db, s.client);
    expect(await stored()).toBe(summary);
  });
});
