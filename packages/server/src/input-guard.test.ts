import { ENTITY_MESSAGES, ID_MESSAGE } from '@dossierbase/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDefField, buildListOption } from '../test/entity-factories';
import { type AdminSetup, adminSetup } from '../test/entity-test-setup';
import { createTestApp, type TestApp } from '../test/test-app';
import { clientErrorFromDatabase, INPUT_MESSAGES, invalidInput } from './input-guard';

// Malformed input answers 400 with a field message (issue 12, defect 8): NUL bytes and lone
// surrogates, integers beyond PostgreSQL's integer, ids that are not decimal digits, empty PATCHes.

let t: TestApp;
let s: AdminSetup;
beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
});
afterAll(() => t.close());

const rawJson = (method: 'POST' | 'PATCH', url: string, body: string) => ({
  method,
  url,
  payload: body,
  headers: { 'content-type': 'application/json' },
});

describe('text with NUL bytes or lone surrogates', () => {
  test('a NUL in the username of login_check answers 400 without signing in', async () => {
    const response = await t.client().post('/api/login_check', { username: 'ad\u0000min', password: 'x' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ errors: { username: INPUT_MESSAGES.characters } });
  });

  test('lone surrogates in a JSON body answer 400 with the field path', async () => {
    for (const surrogate of ['\\ud800', '\\udfff', 'a\\udc00b', '\\ud83d']) {
      const response = await t
        .client()
        .request(rawJson('POST', '/api/login_check', `{"username":"${surrogate}","password":"x"}`));
      expect(response.statusCode, `${surrogate}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({ errors: { username: INPUT_MESSAGES.characters } });
    }
    // a proper pair (an emoji) is ordinary text
    const pair = await t.client().post('/api/login_check', { username: '\ud83d\ude00', password: 'x' });
    expect(pair.statusCode).toBe(401);
  });

  test('nested strings, object keys and jsonb settings are checked too', async () => {
    const field = await buildDefField(t.db, s.environment.id, { type: 'list' });
    const nested = await s.admin.post('/api/deffieldlist', {
      environment: s.environment.id,
      defField: field.id,
      translations: [{ culture: 'en_GB', text: 'Red\u0000' }],
    });
    expect(nested.statusCode, nested.body).toBe(400);
    expect(nested.json()).toEqual({ errors: { 'translations.0.text': INPUT_MESSAGES.characters } });

    const key = await s.admin.request(
      rawJson('PATCH', `/api/deffield/${field.id}`, '{"settings":{"a\\u0000b":1}}'),
    );
    expect(key.statusCode, key.body).toBe(400);
    expect(key.json()).toEqual({ errors: { settings: INPUT_MESSAGES.characters } });

    const surrogate = await s.admin.request(
      rawJson('PATCH', `/api/deffield/${field.id}`, '{"settings":{"note":"\\udead"}}'),
    );
    expect(surrogate.statusCode, surrogate.body).toBe(400);
    expect(surrogate.json()).toEqual({ errors: { 'settings.note': INPUT_MESSAGES.characters } });
    const stored = await t.db
      .selectFrom('def_field')
      .select('settings')
      .where('id', '=', field.id)
      .executeTakeFirst();
    expect(stored?.settings).toEqual({});
  });

  test('query strings and path parameters with NUL answer 400', async () => {
    const query = await s.admin.get('/api/environment?name=a%00b');
    expect(query.statusCode, query.body).toBe(400);
    expect(query.json()).toEqual({ errors: { name: INPUT_MESSAGES.characters } });

    const param = await t.client().get('/api/user/reset_password/abc%00def');
    expect(param.statusCode, param.body).toBe(400);
    expect(param.json()).toEqual({ errors: { token: INPUT_MESSAGES.characters } });
  });

  test('absurdly nested JSON answers 400', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await s.admin.request(rawJson('PATCH', '/api/deffield/1', `{"settings":{"x":${deep}}}`));
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.values(response.json().errors)).toEqual([INPUT_MESSAGES.nesting]);
  });

  test('invalidInput walks plain data only', () => {
    expect(invalidInput({ a: [{ b: 'ok' }, 'x\u0000'] }, 'body')).toEqual(['a.1', INPUT_MESSAGES.characters]);
    expect(invalidInput('\ud800', 'body')).toEqual(['body', INPUT_MESSAGES.characters]);
    expect(invalidInput({ id: '12' }, 'params')).toBeNull();
    // a buffer (an upload streamed elsewhere) is not walked byte by byte
    expect(invalidInput({ file: Buffer.from([0, 0, 0]) }, 'body')).toBeNull();
  });
});

describe('integers and ids', () => {
  test('ids in paths are 1 to 2147483647 in decimal digits only', async () => {
    const field = await buildDefField(t.db, s.environment.id);
    expect((await s.admin.get(`/api/deffield/${field.id}`)).statusCode).toBe(200);
    for (const id of [
      '0x10',
      '1e3',
      '%2012',
      '-1',
      '+5',
      '1.0',
      '0',
      '2147483648',
      '9999999999',
      '99999999999',
    ]) {
      const response = await s.admin.get(`/api/deffield/${id}`);
      expect(response.statusCode, `${id}: ${response.body}`).toBe(400);
      expect(response.json(), id).toEqual({ errors: { id: ID_MESSAGE } });
    }
    expect((await s.admin.get('/api/deffield/2147483647')).statusCode).toBe(404);
  });

  test('ids in query strings and bodies beyond the integer column answer 400', async () => {
    const query = await s.admin.get('/api/role?environment=9999999999');
    expect(query.statusCode, query.body).toBe(400);
    expect(query.json()).toEqual({ errors: { environment: ID_MESSAGE } });

    const hex = await s.admin.get(`/api/role?environment=0x${s.environment.id.toString(16)}`);
    expect(hex.statusCode, hex.body).toBe(400);

    const body = await s.admin.post('/api/role', { environment: 2147483648, name: 'Big' });
    expect(body.statusCode, body.body).toBe(400);
    expect(body.json()).toEqual({ errors: { environment: ID_MESSAGE } });

    const userIds = await s.admin.get(`/api/user?environment=${s.environment.id}&ids=1,9999999999`);
    expect(userIds.statusCode, userIds.body).toBe(400);
    expect(userIds.json()).toEqual({ errors: { ids: ID_MESSAGE } });

    const page = await s.admin.get(`/api/role?environment=${s.environment.id}&page=99999999999`);
    expect(page.statusCode, page.body).toBe(400);
  });

  test('ranks beyond the integer column answer 400 and change nothing', async () => {
    const field = await buildDefField(t.db, s.environment.id, { type: 'list' });
    const option = await buildListOption(t.db, field.id);
    const create = await s.admin.post('/api/deffieldlist', {
      environment: s.environment.id,
      defField: field.id,
      rank: 2147483648,
      translations: [{ culture: 'en_GB', text: 'Big' }],
    });
    expect(create.statusCode, create.body).toBe(400);
    expect(Object.keys(create.json().errors)).toEqual(['rank']);
    const ranks = await s.admin.patch('/api/deffieldlist', { ranks: [{ id: option.id, rank: 1e10 }] });
    expect(ranks.statusCode, ranks.body).toBe(400);
    const stored = await t.db
      .selectFrom('def_field_list')
      .select('rank')
      .where('id', '=', option.id)
      .executeTakeFirstOrThrow();
    expect(stored.rank).toBe(0);
  });
});

describe('empty PATCH', () => {
  test('an empty PATCH of a list option answers 400; one that changes nothing answers the option', async () => {
    const field = await buildDefField(t.db, s.environment.id, { type: 'list' });
    const option = await buildListOption(t.db, field.id);
    const empty = await s.admin.patch(`/api/deffieldlist/${option.id}`, {});
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json()).toEqual({ errors: { body: ENTITY_MESSAGES.nothingToChange } });

    const same = await s.admin.patch(`/api/deffieldlist/${option.id}`, { defField: field.id });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ id: option.id, def_field_id: field.id });
  });

  test('every PATCH schema refuses an empty body', async () => {
    const field = await buildDefField(t.db, s.environment.id);
    const response = await s.admin.patch(`/api/deffield/${field.id}`, {});
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ errors: { body: ENTITY_MESSAGES.nothingToChange } });
  });
});

describe('database errors that still slip through', () => {
  async function databaseError(statement: ReturnType<typeof sql>) {
    try {
      await statement.execute(t.db);
    } catch (error) {
      return error;
    }
    throw new Error('the statement did not fail');
  }

  test('data exceptions become a 400 with a generic message; other errors stay server errors', async () => {
    for (const statement of [
      sql`select 'abc'::int`,
      sql`select 2147483648::int4`,
      sql`select '{"a":"\\u0000"}'::jsonb ->> 'a'`,
    ]) {
      const error = await databaseError(statement);
      expect(clientErrorFromDatabase(error)).toEqual({ errors: { body: INPUT_MESSAGES.unstorable } });
    }
    expect(clientErrorFromDatabase(await databaseError(sql`select * from no_such_table`))).toBeNull();
    expect(clientErrorFromDatabase(new Error('boom'))).toBeNull();
    expect(clientErrorFromDatabase(null)).toBeNull();
  });
});
