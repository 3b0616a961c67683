import { REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildDisplayPosition } from '../../../test/entity-factories';
import { adminSetup, expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { NOT_IN_ENVIRONMENT } from '../def-dossier-def-field/shared';
import { VIEW_NAME_BUILT_IN, VIEW_NAME_TAKEN, viewInUse } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function setup() {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Project' });
  return { ...s, entity };
}

const viewNames = (body: { results: { view_name: string }[] }) => body.results.map((r) => r.view_name);

describe('/api/displaycustomview', () => {
  test('create, read, rename and delete', async () => {
    const { environment, admin, entity } = await setup();
    const created = await admin.post('/api/displaycustomview', {
      environment: environment.id,
      defDossier: entity.id,
      viewName: ' Gantt ',
    });
    expect(created.statusCode, created.body).toBe(201);
    const view = created.json();
    expect(view).toEqual({ id: expect.any(Number), view_name: 'Gantt', def_dossier_id: entity.id });
    expect((await admin.get(`/api/displaycustomview/${view.id}`)).json()).toEqual(view);

    // Renaming carries the view's display items and positions along.
    const item = await buildDisplayItem(t.db, entity, { view: 'Gantt' });
    const position = await buildDisplayPosition(t.db, entity);
    await t.db
      .updateTable('display_position')
      .set({ view_name: 'Gantt' })
      .where('id', '=', position.id)
      .execute();
    const renamed = await admin.patch(`/api/displaycustomview/${view.id}`, { viewName: 'Planning' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ ...view, view_name: 'Planning' });
    expect((await admin.get(`/api/displayitem/${item.id}`)).json().view).toBe('Planning');
    expect((await admin.get(`/api/displayposition/${position.id}`)).json().view_name).toBe('Planning');

    const inUse = await admin.delete(`/api/displaycustomview/${view.id}`);
    expect(inUse.statusCode).toBe(400);
    expect(inUse.json()).toEqual({ errors: { viewName: viewInUse(1) } });
    expect(viewInUse(1)).toContain('1 display item;');
    await admin.delete(`/api/displayitem/${item.id}`);
    expect((await admin.delete(`/api/displaycustomview/${view.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/displaycustomview/${view.id}`)).statusCode).toBe(404);
  });

  test('rules: required and valid name, unique per entity, no built-in view names', async () => {
    const { environment, otherEnvironment, admin, entity } = await setup();
    const body = { environment: environment.id, defDossier: entity.id, viewName: 'Kanban' };
    expect((await admin.post('/api/displaycustomview', body)).statusCode).toBe(201);
    const again = await admin.post('/api/displaycustomview', body);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: { viewName: VIEW_NAME_TAKEN } });
    const elsewhere = await buildDefDossier(t.db, environment.id);
    expect(
      (await admin.post('/api/displaycustomview', { ...body, defDossier: elsewhere.id })).statusCode,
    ).toBe(201);

    for (const viewName of ['list', 'Show/Edit', 'advanced-search', 'SUMMARY']) {
      const response = await admin.post('/api/displaycustomview', { ...body, viewName });
      expect(response.statusCode, viewName).toBe(400);
      const expected = viewName.includes('/') ? 'Use letters, digits, spaces, - and _' : VIEW_NAME_BUILT_IN;
      expect(response.json(), viewName).toEqual({ errors: { viewName: expected } });
    }
    expect((await admin.post('/api/displaycustomview', { ...body, viewName: ' ' })).json()).toEqual({
      errors: { viewName: REQUIRED_MESSAGE },
    });
    const script = await admin.post('/api/displaycustomview', { ...body, viewName: '<script>' });
    expect(script.statusCode).toBe(400);

    const other = (await admin.post('/api/displaycustomview', { ...body, viewName: 'Timeline' })).json();
    const clash = await admin.patch(`/api/displaycustomview/${other.id}`, { viewName: 'Kanban' });
    expect(clash.json()).toEqual({ errors: { viewName: VIEW_NAME_TAKEN } });
    const builtIn = await admin.patch(`/api/displaycustomview/${other.id}`, { viewName: 'search' });
    expect(builtIn.json()).toEqual({ errors: { viewName: VIEW_NAME_BUILT_IN } });
    expect(
      (await admin.patch(`/api/displaycustomview/${other.id}`, { viewName: 'Timeline' })).statusCode,
    ).toBe(200);

    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    const cross = await admin.post('/api/displaycustomview', { ...body, defDossier: foreign.id });
    expect(cross.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });
  });

  test('lists by name with paging, by entity or environment', async () => {
    const { environment, otherEnvironment, admin, entity } = await setup();
    for (const viewName of ['delta', 'Alpha', 'charlie', 'Bravo']) {
      await admin.post('/api/displaycustomview', {
        environment: environment.id,
        defDossier: entity.id,
        viewName,
      });
    }
    const second = await buildDefDossier(t.db, environment.id);
    await admin.post('/api/displaycustomview', {
      environment: environment.id,
      defDossier: second.id,
      viewName: 'echo',
    });
    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    await t.db
      .insertInto('display_custom_view')
      .values({ environment_id: otherEnvironment.id, def_dossier_id: foreign.id, view_name: 'Alpha foreign' })
      .execute();

    const first = await admin.get(`/api/displaycustomview?defDossier=${entity.id}&limit=3`);
    expect(first.statusCode).toBe(200);
    expect(first.json().pager).toEqual({ current: 0, pages: 2, items: 4, limit: 3 });
    expect(viewNames(first.json())).toEqual(['Alpha', 'Bravo', 'charlie']);
    expect(
      viewNames((await admin.get(`/api/displaycustomview?defDossier=${entity.id}&limit=3&page=1`)).json()),
    ).toEqual(['delta']);
    const all = await admin.get(`/api/displaycustomview?environment=${environment.id}&limit=500`);
    expect(viewNames(all.json())).toEqual(['Alpha', 'Bravo', 'charlie', 'delta', 'echo']);
    expect(
      viewNames((await admin.get(`/api/displaycustomview?environment=${environment.id}&search=ALP`)).json()),
    ).toEqual(['Alpha']);
    for (const query of ['', `defDossier=${entity.id}&limit=501`]) {
      expect((await admin.get(`/api/displaycustomview?${query}`)).statusCode, query).toBe(400);
    }
  });

  test('only admins of the environment: members and other admins are refused on every call', async () => {
    const { environment, otherEnvironment, admin, member, outsider, entity } = await setup();
    const view = (
      await admin.post('/api/displaycustomview', {
        environment: environment.id,
        defDossier: entity.id,
        viewName: 'Secret view',
      })
    ).json();
    const body = { environment: environment.id, defDossier: entity.id, viewName: 'Sneaky' };
    const calls = (client: TestClient) =>
      [
        ['list by entity', () => client.get(`/api/displaycustomview?defDossier=${entity.id}`)],
        ['list by environment', () => client.get(`/api/displaycustomview?environment=${environment.id}`)],
        ['get', () => client.get(`/api/displaycustomview/${view.id}`)],
        ['post', () => client.post('/api/displaycustomview', body)],
        ['patch', () => client.patch(`/api/displaycustomview/${view.id}`, { viewName: 'Hacked' })],
        ['delete', () => client.delete(`/api/displaycustomview/${view.id}`)],
      ] as const;
    for (const [what, call] of calls(member)) expectForbidden(await call(), `member ${what}`);
    for (const [what, call] of calls(outsider)) {
      const response = await call();
      expectNotFound(response, `outsider ${what}`);
      expect(response.body).not.toContain('Secret view');
    }
    for (const [what, call] of calls(t.client())) expect((await call()).statusCode, what).toBe(401);
    const outsiderPost = await outsider.post('/api/displaycustomview', {
      ...body,
      environment: otherEnvironment.id,
    });
    expect(outsiderPost.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });
    expect((await admin.get(`/api/displaycustomview/${view.id}`)).json().view_name).toBe('Secret view');
  });
});
