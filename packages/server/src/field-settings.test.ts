import {
  type DisplayItem,
  displayItemRows,
  fieldSettingsOf,
  fieldTypeOf,
  getFieldType,
  TEXT_MESSAGES,
} from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDisplayItem, buildDisplayPosition, buildListOption } from '../test/entity-factories';
import { type AdminSetup, adminSetup } from '../test/entity-test-setup';
import { buildDefDossier } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';

// One settings rule on both sides (core fields/settings.ts): a data field's and a display item's
// overrides of the base field's settings decide the server's validation on save exactly as they
// decide the form's (both merge with core fieldSettingsOf; the browser's unit test is
// web/src/features/dossiers/form-logic.test.ts). Settings an admin sends are checked on write (400);
// settings stored broken are read key by key with the type's defaults, never a 500.

let t: TestApp;
let s: AdminSetup;
let entityId: number;
let envId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
  envId = s.environment.id;
  const entity = await buildDefDossier(t.db, envId, { name: 'Case' });
  entityId = entity.id;
  const position = await buildDisplayPosition(t.db, entity, { name: 'Main', type: 'main_content', rank: 1 });
  // base fields and data fields through the admin calls, as the field designer makes them
  const field = async (name: string, type: string, base: object, override: object) => {
    const created = await s.admin.post('/api/deffield', { environment: envId, name, type, settings: base });
    expect(created.statusCode, created.body).toBe(201);
    const data = await s.admin.post('/api/defdossierdeffield', {
      environment: envId,
      defDossier: entityId,
      defField: created.json().id,
      name,
      settings: override,
    });
    expect(data.statusCode, data.body).toBe(201);
    ids[`${name}Base`] = created.json().id;
    ids[`${name}Data`] = data.json().id;
    ids[name] = (
      await buildDisplayItem(t.db, entity, { dataFieldId: data.json().id, positionId: position.id })
    ).id;
  };
  await field('tags', 'list', { multiple: false }, { multiple: true });
  await field('code', 'text', { regex: '^[0-9]+$' }, { regex: '^[A-Z]{2}$' });
  ids.red = (await buildListOption(t.db, ids.tagsBase, { text: 'Red' })).id;
  ids.blue = (await buildListOption(t.db, ids.tagsBase, { text: 'Blue' })).id;
  // the display item overrides what its data field leaves as the base field has it
  const overridingItem = async (name: string, settings: object) => {
    const item = await s.admin.post('/api/displayitem', {
      environment: envId,
      defDossier: entityId,
      defDossierDefField: ids[`${name}Data`],
      view: 'show/edit',
      settings,
    });
    expect(item.statusCode, item.body).toBe(201);
    ids[`${name}Item`] = item.json().id;
  };
  await field('kinds', 'list', { multiple: false }, {});
  await field('ref', 'text', { regex: '^[0-9]+$' }, {});
  await overridingItem('kinds', { multiple: true });
  await overridingItem('ref', { regex: '^[A-Z]{2}$' });
  ids.small = (await buildListOption(t.db, ids.kindsBase, { text: 'Small' })).id;
  ids.large = (await buildListOption(t.db, ids.kindsBase, { text: 'Large' })).id;
});
afterAll(() => t.close());

/** The form's verdict: core's normalise with the settings the browser merges from the API's item. */
async function formVerdict(itemId: number, value: unknown) {
  const answer = await s.admin.get(`/api/displayitem?defDossier=${entityId}&limit=500`);
  expect(answer.statusCode, answer.body).toBe(200);
  const item = (answer.json().results as DisplayItem[]).find((i) => i.id === itemId) as DisplayItem;
  const rows = displayItemRows(item);
  return getFieldType(fieldTypeOf(rows) as string).normalise(value, fieldSettingsOf(rows));
}

/** The server's verdict on save: accepted, or the message for the item. */
async function serverVerdict(itemId: number, value: unknown) {
  const response = await s.admin.post('/api/contentdossier', {
    defDossier: entityId,
    values: { [itemId]: value },
  });
  if (response.statusCode === 201) return { ok: true as const };
  expect(response.statusCode, response.body).toBe(400);
  return { ok: false as const, message: response.json().errors[String(itemId)] as string };
}

describe('settings a data field overrides', () => {
  it.each([
    ['list: two options (multiple on the data field)', 'tags', () => [ids.red, ids.blue], true],
    ['list: one option', 'tags', () => ids.red, true],
    ['text: matches the data field regex', 'code', () => 'AB', true],
    ['text: matches only the base field regex', 'code', () => '12', false],
  ])('%s: the server and the form agree', async (_name, item, value, accepted) => {
    const form = await formVerdict(ids[item], value());
    const server = await serverVerdict(ids[item], value());
    expect(form.ok).toBe(accepted);
    expect(server.ok).toBe(accepted);
    if (!form.ok && !server.ok) {
      expect(server.message).toBe(form.message);
      expect(server.message).toBe(TEXT_MESSAGES.pattern);
    }
  });
});

describe('settings a display item overrides', () => {
  it.each([
    ['list: two options (multiple on the display item)', 'kindsItem', () => [ids.small, ids.large], true],
    ['list: one option', 'kindsItem', () => ids.small, true],
    ['text: matches the display item regex', 'refItem', () => 'AB', true],
    ['text: matches only the base field regex', 'refItem', () => '12', false],
  ])('%s: the server and the form agree', async (_name, item, value, accepted) => {
    const form = await formVerdict(ids[item], value());
    const server = await serverVerdict(ids[item], value());
    expect(form.ok).toBe(accepted);
    expect(server.ok).toBe(accepted);
    if (!form.ok && !server.ok) {
      expect(server.message).toBe(form.message);
      expect(server.message).toBe(TEXT_MESSAGES.pattern);
    }
  });
});

describe('settings an admin sends', () => {
  it('are refused with 400 per key when they do not parse: base field, data field, display item', async () => {
    const base = await s.admin.post('/api/deffield', {
      environment: envId,
      name: 'bad',
      type: 'text',
      settings: { regex: '(' },
    });
    expect(base.statusCode).toBe(400);
    expect(base.json().errors).toEqual({ 'settings.regex': 'Invalid regular expression' });

    const dataCreate = await s.admin.post('/api/defdossierdeffield', {
      environment: envId,
      defDossier: entityId,
      defField: ids.tagsBase,
      name: 'bad_tags',
      settings: { multiple: 'yes' },
    });
    expect(dataCreate.statusCode).toBe(400);
    expect(Object.keys(dataCreate.json().errors)).toEqual(['settings.multiple']);

    const dataPatch = await s.admin.request({
      method: 'PATCH',
      url: `/api/defdossierdeffield/${ids.codeData}`,
      payload: { settings: { regex: '[' } },
    });
    expect(dataPatch.statusCode).toBe(400);
    expect(dataPatch.json().errors).toEqual({ 'settings.regex': 'Invalid regular expression' });

    const item = await s.admin.post('/api/displayitem', {
      environment: envId,
      defDossier: entityId,
      defDossierDefField: ids.tagsData,
      view: 'list',
      settings: { checkbox_view: 'on' },
    });
    expect(item.statusCode).toBe(400);
    expect(Object.keys(item.json().errors)).toEqual(['settings.checkbox_view']);
  });

  it('are accepted when they parse, keeping the keys the type does not know', async () => {
    const item = await s.admin.request({
      method: 'PATCH',
      url: `/api/displayitem/${ids.tags}`,
      payload: { settings: { checkbox_view: true, show_info_direct: true } },
    });
    expect(item.statusCode, item.body).toBe(200);
    expect(item.json().settings).toEqual({ checkbox_view: true, show_info_direct: true });
    const data = await s.admin.request({
      method: 'PATCH',
      url: `/api/defdossierdeffield/${ids.codeData}`,
      payload: { settings: { regex: '^[A-Z]{2}$', size: 2 } },
    });
    expect(data.statusCode, data.body).toBe(200);
  });
});

describe('settings stored broken', () => {
  it('are read with the type default for the broken key, on save and in the list', async () => {
    await t.db
      .updateTable('def_dossier_def_field')
      .set({ settings: { regex: '(' } })
      .where('id', '=', ids.codeData)
      .execute();
    expect(await serverVerdict(ids.code, 'anything')).toEqual({ ok: true });
    expect(await formVerdict(ids.code, 'anything')).toEqual({ ok: true, value: 'anything' });
    const list = await s.admin.get(`/api/contentdossier?defDossier=${entityId}`);
    expect(list.statusCode, list.body).toBe(200);
  });
});
