import { randomUUID } from 'node:crypto';
import { ENTITY_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildDisplayPosition } from '../../../test/entity-factories';
import { adminSetup, expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { NOT_IN_ENVIRONMENT } from '../def-dossier-def-field/shared';
import { positionInUse } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function setup() {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Client' });
  return { ...s, entity };
}

const ids = (body: { results: { id: number }[] }) => body.results.map((r) => r.id);

describe('/api/displayposition', () => {
  test('create, read, update and delete', async () => {
    const { environment, admin, entity } = await setup();
    const uuid = randomUUID();
    const created = await admin.post('/api/displayposition', {
      environment: environment.id,
      uuid,
      defDossier: entity.id,
      type: 'tab',
      rank: 2,
      translations: [{ culture: 'en_GB', name: 'General', name_plural: 'Generals' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const position = created.json();
    expect(position).toEqual({
      id: expect.any(Number),
      uuid,
      def_dossier_id: entity.id,
      type: 'tab',
      hide: false,
      rank: 2,
      view_name: null,
      translations: [{ culture: 'en_GB', name: 'General', name_plural: 'Generals' }],
    });
    expect((await admin.get(`/api/displayposition/${position.id}`)).json()).toEqual(position);

    const patched = await admin.patch(`/api/displayposition/${position.id}`, { hide: true, type: 'meta' });
    expect(patched.statusCode, patched.body).toBe(200);
    // Rank and translations were left out and stay.
    expect(patched.json()).toEqual({ ...position, hide: true, type: 'meta' });
    const emptied = await admin.patch(`/api/displayposition/${position.id}`, {
      translations: [],
      view_name: 'Gantt',
    });
    expect(emptied.json()).toMatchObject({ translations: [], view_name: 'Gantt', rank: 2 });

    expect((await admin.delete(`/api/displayposition/${position.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/displayposition/${position.id}`)).statusCode).toBe(404);
    expect((await admin.patch(`/api/displayposition/${position.id}`, { hide: false })).statusCode).toBe(404);
  });

  test('rules: type required and known, rank not below 0, entity of the environment, unique uuid', async () => {
    const { environment, otherEnvironment, admin, entity } = await setup();
    const body = { environment: environment.id, defDossier: entity.id, type: 'main_content' };
    const noType = await admin.post('/api/displayposition', { ...body, type: undefined });
    expect(noType.json()).toEqual({ errors: { type: REQUIRED_MESSAGE } });
    const unknown = await admin.post('/api/displayposition', { ...body, type: 'sidebar' });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().errors)).toEqual(['type']);
    const negative = await admin.post('/api/displayposition', { ...body, rank: -1 });
    expect(negative.json()).toEqual({ errors: { rank: ENTITY_MESSAGES.notBelowZero } });
    const position = (await admin.post('/api/displayposition', body)).json();
    const badPatch = await admin.patch(`/api/displayposition/${position.id}`, { type: 'sidebar' });
    expect(badPatch.statusCode).toBe(400);

    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    const cross = await admin.post('/api/displayposition', { ...body, defDossier: foreign.id });
    expect(cross.statusCode).toBe(400);
    expect(cross.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });

    const uuid = randomUUID();
    expect((await admin.post('/api/displayposition', { ...body, uuid })).statusCode).toBe(201);
    const again = await admin.post('/api/displayposition', { ...body, uuid });
    expect(again.statusCode).toBe(400);
    expect(Object.keys(again.json().errors)).toEqual(['uuid']);
  });

  test('lists by rank with paging and type, environment and uuid filters', async () => {
    const { environment, otherEnvironment, admin, entity } = await setup();
    const third = await buildDisplayPosition(t.db, entity, { rank: 3, type: 'tab' });
    const first = await buildDisplayPosition(t.db, entity, { rank: 1, type: 'main_content' });
    const second = await buildDisplayPosition(t.db, entity, { rank: 2, type: 'tab' });
    const other = await buildDisplayPosition(t.db, await buildDefDossier(t.db, environment.id), { rank: 0 });
    await buildDisplayPosition(t.db, await buildDefDossier(t.db, otherEnvironment.id));

    const all = await admin.get(`/api/displayposition?defDossier=${entity.id}`);
    expect(all.statusCode).toBe(200);
    expect(ids(all.json())).toEqual([first.id, second.id, third.id]);
    const page = await admin.get(`/api/displayposition?defDossier=${entity.id}&limit=2&page=1`);
    expect(page.json()).toMatchObject({ pager: { current: 1, pages: 2, items: 3, limit: 2 } });
    expect(ids(page.json())).toEqual([third.id]);
    expect(ids((await admin.get(`/api/displayposition?defDossier=${entity.id}&type=tab`)).json())).toEqual([
      second.id,
      third.id,
    ]);
    const wholeEnvironment = await admin.get(`/api/displayposition?environment=${environment.id}`);
    expect(ids(wholeEnvironment.json())).toEqual([other.id, first.id, second.id, third.id]);
    const byUuid = await admin.get(`/api/displayposition?environment=${environment.id}&uuid=${second.uuid}`);
    expect(ids(byUuid.json())).toEqual([second.id]);
    for (const query of ['', `defDossier=${entity.id}&type=sidebar`, `defDossier=${entity.id}&limit=501`]) {
      expect((await admin.get(`/api/displayposition?${query}`)).statusCode, query).toBe(400);
    }
  });

  test('a position holding display items cannot be deleted', async () => {
    const { admin, entity } = await setup();
    const position = await buildDisplayPosition(t.db, entity);
    const one = await buildDisplayItem(t.db, entity, { positionId: position.id, view: 'edit' });
    const two = await buildDisplayItem(t.db, entity, { positionId: position.id, view: 'show' });
    const refused = await admin.delete(`/api/displayposition/${position.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { displayPosition: positionInUse(2) } });
    expect(positionInUse(2)).toContain('2 display items');
    await admin.delete(`/api/displayitem/${one.id}`);
    expect((await admin.delete(`/api/displayposition/${position.id}`)).json()).toEqual({
      errors: { displayPosition: positionInUse(1) },
    });
    await admin.delete(`/api/displayitem/${two.id}`);
    expect((await admin.delete(`/api/displayposition/${position.id}`)).statusCode).toBe(204);
  });

  test('only admins of the environment: members and other admins are refused on every call', async () => {
    const { environment, otherEnvironment, admin, member, outsider, entity } = await setup();
    const position = await buildDisplayPosition(t.db, entity, { name: 'Secret tab' });
    const body = { environment: environment.id, defDossier: entity.id, type: 'tab' };
    const calls = (client: TestClient) =>
      [
        ['list by entity', () => client.get(`/api/displayposition?defDossier=${entity.id}`)],
        ['list by environment', () => client.get(`/api/displayposition?environment=${environment.id}`)],
        ['get', () => client.get(`/api/displayposition/${position.id}`)],
        ['post', () => client.post('/api/displayposition', body)],
        ['patch', () => client.patch(`/api/displayposition/${position.id}`, { hide: true })],
        ['delete', () => client.delete(`/api/displayposition/${position.id}`)],
      ] as const;
    for (const [what, call] of calls(member)) expectForbidden(await call(), `member ${what}`);
    for (const [what, call] of calls(outsider)) {
      const response = await call();
      expectNotFound(response, `outsider ${what}`);
      expect(response.body).not.toContain('Secret tab');
    }
    for (const [what, call] of calls(t.client())) expect((await call()).statusCode, what).toBe(401);
    const outsiderPost = await outsider.post('/api/displayposition', {
      ...body,
      environment: otherEnvironment.id,
    });
    expect(outsiderPost.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });
    expect((await admin.get(`/api/displayposition/${position.id}`)).json().hide).toBe(false);
  });
});
