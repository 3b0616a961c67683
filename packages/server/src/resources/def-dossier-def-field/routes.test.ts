import { randomUUID } from 'node:crypto';
import { ENTITY_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
} from '../../../test/entity-factories';
import { adminSetup, expectForbidden, expectNotFound, put } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { NAME_TAKEN } from './service';
import { NOT_IN_ENVIRONMENT } from './shared';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

async function setup() {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Client' });
  const text = await buildDefField(t.db, s.environment.id, { type: 'text', name: 'Text' });
  return { ...s, entity, text };
}

describe('/api/defdossierdeffield', () => {
  test('create, read, update and delete', async () => {
    const { environment, admin, entity, text } = await setup();
    const uuid = randomUUID();
    const created = await admin.post('/api/defdossierdeffield', {
      environment: environment.id,
      uuid,
      defDossier: entity.id,
      defField: text.id,
      name: '  First name (given)! ',
      settings: { size: 40 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const field = created.json();
    expect(field).toEqual({
      id: expect.any(Number),
      uuid,
      environment_id: environment.id,
      def_dossier_id: entity.id,
      name: 'First_name_given_',
      obligatory: false,
      locked: false,
      roles: [],
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
      settings: { size: 40 },
      def_field: { id: text.id, uuid: text.uuid, name: 'Text', type: 'text', settings: {} },
    });
    expect((await admin.get(`/api/defdossierdeffield/${field.id}`)).json()).toEqual(field);

    // PUT changes only what is given: settings and locked stay.
    const updated = await put(admin, `/api/defdossierdeffield/${field.id}`, {
      name: 'given name',
      obligatory: true,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toEqual({ ...field, name: 'given_name', obligatory: true });
    // The client sends the whole form, with keys the update ignores.
    const full = await put(admin, `/api/defdossierdeffield/${field.id}`, {
      id: field.id,
      environment: environment.id,
      uuid,
      defDossier: entity.id,
      defField: text.id,
      name: 'given_name',
      obligatory: false,
      locked: false,
      settings: {},
    });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toEqual({ ...field, name: 'given_name', settings: {} });
    // Template apply patches.
    const patched = await admin.patch(`/api/defdossierdeffield/${field.id}`, { settings: { size: 10 } });
    expect(patched.json().settings).toEqual({ size: 10 });

    const deleted = await admin.delete(`/api/defdossierdeffield/${field.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await admin.get(`/api/defdossierdeffield/${field.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/defdossierdeffield/${field.id}`)).statusCode).toBe(404);
  });

  test('lists with paging, search, type, environment and uuid filters', async () => {
    const { environment, otherEnvironment, admin, entity, text } = await setup();
    const list = await buildDefField(t.db, environment.id, { type: 'list' });
    const second = await buildDefDossier(t.db, environment.id);
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'alpha_2']) {
      await buildDataField(t.db, entity, name === 'charlie' ? list.id : text.id, { name });
    }
    const elsewhere = await buildDataField(t.db, second, text.id, { name: 'alpha_elsewhere' });
    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    await buildDataField(t.db, foreign, (await buildDefField(t.db, otherEnvironment.id)).id, {
      name: 'alpha_x',
    });

    const first = await admin.get(`/api/defdossierdeffield?defDossier=${entity.id}&limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().pager).toEqual({ current: 0, pages: 3, items: 5, limit: 2 });
    expect(names(first.json())).toEqual(['Alpha', 'alpha_2']);
    expect(first.json().results[0].def_field).toMatchObject({ id: text.id, type: 'text' });
    const last = await admin.get(`/api/defdossierdeffield?defDossier=${entity.id}&limit=2&page=2`);
    expect(names(last.json())).toEqual(['delta']);

    const search = await admin.get(`/api/defdossierdeffield?defDossier=${entity.id}&search=ALPHA`);
    expect(names(search.json())).toEqual(['Alpha', 'alpha_2']);
    const literal = await admin.get(`/api/defdossierdeffield?defDossier=${entity.id}&search=a_2`);
    expect(names(literal.json())).toEqual(['alpha_2']);
    const byType = await admin.get(`/api/defdossierdeffield?defDossier=${entity.id}&type=list`);
    expect(names(byType.json())).toEqual(['charlie']);
    const wholeEnvironment = await admin.get(
      `/api/defdossierdeffield?environment=${environment.id}&search=alpha`,
    );
    expect(names(wholeEnvironment.json())).toEqual(['Alpha', 'alpha_2', 'alpha_elsewhere']);
    const byUuid = await admin.get(
      `/api/defdossierdeffield?environment=${environment.id}&uuid=${elsewhere.uuid}`,
    );
    expect(byUuid.json().results.map((r: { id: number }) => r.id)).toEqual([elsewhere.id]);
    const both = await admin.get(
      `/api/defdossierdeffield?environment=${environment.id}&defDossier=${second.id}`,
    );
    expect(names(both.json())).toEqual(['alpha_elsewhere']);
    expect((await admin.get(`/api/defdossierdeffield?defDossier=${entity.id}&limit=500`)).statusCode).toBe(
      200,
    );

    for (const query of [
      '',
      'limit=501',
      `defDossier=${entity.id}&limit=501`,
      `defDossier=${entity.id}&page=-1`,
      `defDossier=${entity.id}&type=nope`,
      `environment=${environment.id}&uuid=nope`,
    ]) {
      const response = await admin.get(`/api/defdossierdeffield?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await admin.get('/api/defdossierdeffield')).json()).toEqual({
      errors: { environment: REQUIRED_MESSAGE },
    });
  });

  test('create rules: required fields, unique name, same-environment references', async () => {
    const { environment, otherEnvironment, admin, entity, text } = await setup();
    const body = { environment: environment.id, defDossier: entity.id, defField: text.id, name: 'name' };
    expect((await admin.post('/api/defdossierdeffield', body)).statusCode).toBe(201);
    const again = await admin.post('/api/defdossierdeffield', { ...body, name: ' name ' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: { name: NAME_TAKEN } });
    // Same name on another entity is fine.
    const other = await buildDefDossier(t.db, environment.id);
    expect((await admin.post('/api/defdossierdeffield', { ...body, defDossier: other.id })).statusCode).toBe(
      201,
    );

    const missing = await admin.post('/api/defdossierdeffield', {
      environment: environment.id,
      defDossier: entity.id,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toMatchObject({ name: REQUIRED_MESSAGE, defField: REQUIRED_MESSAGE });
    const blank = await admin.post('/api/defdossierdeffield', { ...body, name: '   ' });
    expect(blank.json()).toEqual({ errors: { name: REQUIRED_MESSAGE } });

    const foreignField = await buildDefField(t.db, otherEnvironment.id);
    const foreignEntity = await buildDefDossier(t.db, otherEnvironment.id);
    const badField = await admin.post('/api/defdossierdeffield', {
      ...body,
      name: 'x',
      defField: foreignField.id,
    });
    expect(badField.statusCode).toBe(400);
    expect(badField.json()).toEqual({ errors: { defField: NOT_IN_ENVIRONMENT } });
    const badEntity = await admin.post('/api/defdossierdeffield', {
      ...body,
      name: 'x',
      defDossier: foreignEntity.id,
    });
    expect(badEntity.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });
    const unknown = await admin.post('/api/defdossierdeffield', { ...body, name: 'x', defField: 999999 });
    expect(unknown.json()).toEqual({ errors: { defField: NOT_IN_ENVIRONMENT } });

    const uuid = randomUUID();
    expect((await admin.post('/api/defdossierdeffield', { ...body, name: 'u1', uuid })).statusCode).toBe(201);
    const takenUuid = await admin.post('/api/defdossierdeffield', { ...body, name: 'u2', uuid });
    expect(takenUuid.statusCode).toBe(400);
    expect(Object.keys(takenUuid.json().errors)).toEqual(['uuid']);
  });

  test('renaming to a taken name is refused', async () => {
    const { admin, entity, text } = await setup();
    await buildDataField(t.db, entity, text.id, { name: 'taken' });
    const field = await buildDataField(t.db, entity, text.id, { name: 'free' });
    const response = await put(admin, `/api/defdossierdeffield/${field.id}`, { name: 'taken' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: { name: NAME_TAKEN } });
    expect((await put(admin, `/api/defdossierdeffield/${field.id}`, { name: 'free' })).statusCode).toBe(200);
  });

  test('a locked data field only accepts being unlocked', async () => {
    const { admin, entity, text } = await setup();
    const field = await buildDataField(t.db, entity, text.id, {
      name: 'locked_one',
      locked: true,
      settings: { a: 1 },
    });
    const url = `/api/defdossierdeffield/${field.id}`;
    for (const change of [
      { name: 'other' },
      { obligatory: true },
      { settings: {} },
      { locked: false, name: 'other' },
    ]) {
      const response = await put(admin, url, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toEqual({ errors: { locked: ENTITY_MESSAGES.locked } });
    }
    // Sending the stored values again changes nothing and is fine.
    const same = await put(admin, url, {
      name: 'locked_one',
      defField: text.id,
      settings: { a: 1 },
      locked: true,
    });
    expect(same.statusCode, same.body).toBe(200);
    const unlocked = await put(admin, url, {
      locked: false,
      name: 'locked_one',
      obligatory: false,
      settings: { a: 1 },
    });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json().locked).toBe(false);
    expect((await put(admin, url, { name: 'other' })).json().name).toBe('other');
  });

  test('base field changes: list fields are fixed, placed fields keep their type', async () => {
    const { environment, otherEnvironment, admin, entity, text } = await setup();
    const list = await buildDefField(t.db, environment.id, { type: 'list' });
    const tree = await buildDefField(t.db, environment.id, { type: 'tree' });
    const otherList = await buildDefField(t.db, environment.id, { type: 'list' });
    const otherText = await buildDefField(t.db, environment.id, { type: 'text' });
    const amount = await buildDefField(t.db, environment.id, { type: 'amount' });

    for (const base of [list, tree]) {
      const field = await buildDataField(t.db, entity, base.id);
      const response = await put(admin, `/api/defdossierdeffield/${field.id}`, { defField: otherList.id });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ errors: { defField: ENTITY_MESSAGES.listFieldFixed } });
      // The same base field again is no change.
      expect(
        (await put(admin, `/api/defdossierdeffield/${field.id}`, { defField: base.id })).statusCode,
      ).toBe(200);
    }

    const placed = await buildDataField(t.db, entity, text.id);
    await buildDisplayItem(t.db, entity, { dataFieldId: placed.id, view: 'list' });
    const typeChange = await put(admin, `/api/defdossierdeffield/${placed.id}`, { defField: amount.id });
    expect(typeChange.statusCode).toBe(400);
    expect(typeChange.json()).toEqual({ errors: { defField: ENTITY_MESSAGES.placedFieldType } });
    const sameType = await put(admin, `/api/defdossierdeffield/${placed.id}`, { defField: otherText.id });
    expect(sameType.statusCode, sameType.body).toBe(200);
    expect(sameType.json().def_field.id).toBe(otherText.id);

    const free = await buildDataField(t.db, entity, text.id);
    const freeChange = await put(admin, `/api/defdossierdeffield/${free.id}`, { defField: amount.id });
    expect(freeChange.statusCode).toBe(200);
    expect(freeChange.json().def_field.type).toBe('amount');

    const foreign = await buildDefField(t.db, otherEnvironment.id, { type: 'amount' });
    const crossTenant = await put(admin, `/api/defdossierdeffield/${free.id}`, { defField: foreign.id });
    expect(crossTenant.statusCode).toBe(400);
    expect(crossTenant.json()).toEqual({ errors: { defField: NOT_IN_ENVIRONMENT } });
  });

  test('a placed data field cannot be deleted; the refusal names its placements', async () => {
    const { admin, entity, text } = await setup();
    const field = await buildDataField(t.db, entity, text.id);
    const general = await buildDisplayPosition(t.db, entity, { name: 'General', type: 'main_content' });
    const item = await buildDisplayItem(t.db, entity, {
      dataFieldId: field.id,
      positionId: general.id,
      view: 'edit',
    });
    const listItem = await buildDisplayItem(t.db, entity, { dataFieldId: field.id, view: 'list' });
    const response = await admin.delete(`/api/defdossierdeffield/${field.id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: {
        defDossierDefField: `${ENTITY_MESSAGES.placedFieldDelete}. Placed in General (edit), list view`,
      },
    });
    await admin.delete(`/api/displayitem/${item.id}`);
    await admin.delete(`/api/displayitem/${listItem.id}`);
    expect((await admin.delete(`/api/defdossierdeffield/${field.id}`)).statusCode).toBe(204);
  });

  test('only admins of the environment: members and other admins are refused on every call', async () => {
    const { environment, otherEnvironment, admin, member, outsider, entity, text } = await setup();
    const field = await buildDataField(t.db, entity, text.id, { name: 'secret_field' });
    const body = { environment: environment.id, defDossier: entity.id, defField: text.id, name: 'sneaky' };
    const calls = (client: typeof admin) =>
      [
        ['list by entity', () => client.get(`/api/defdossierdeffield?defDossier=${entity.id}`)],
        ['list by environment', () => client.get(`/api/defdossierdeffield?environment=${environment.id}`)],
        ['get', () => client.get(`/api/defdossierdeffield/${field.id}`)],
        ['post', () => client.post('/api/defdossierdeffield', body)],
        ['put', () => put(client, `/api/defdossierdeffield/${field.id}`, { name: 'hacked' })],
        ['patch', () => client.patch(`/api/defdossierdeffield/${field.id}`, { name: 'hacked' })],
        ['delete', () => client.delete(`/api/defdossierdeffield/${field.id}`)],
      ] as const;
    for (const [what, call] of calls(member)) expectForbidden(await call(), `member ${what}`);
    for (const [what, call] of calls(outsider)) {
      const response = await call();
      expectNotFound(response, `outsider ${what}`);
      expect(response.body).not.toContain('secret_field');
    }
    for (const [what, call] of calls(t.client())) expect((await call()).statusCode, what).toBe(401);

    // The other environment's admin cannot pull our rows into theirs.
    const outsiderList = await outsider.get(
      `/api/defdossierdeffield?environment=${otherEnvironment.id}&defDossier=${entity.id}`,
    );
    expect(outsiderList.statusCode).toBe(404);
    const outsiderPost = await outsider.post('/api/defdossierdeffield', {
      ...body,
      environment: otherEnvironment.id,
    });
    expect(outsiderPost.statusCode).toBe(400);
    expect(outsiderPost.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });

    const unchanged = (await admin.get(`/api/defdossierdeffield/${field.id}`)).json();
    expect(unchanged.name).toBe('secret_field');
  });
});
