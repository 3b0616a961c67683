import { ENVIRONMENT_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminSetup, expectForbidden, expectNotFound, put } from '../../../test/entity-test-setup';
import { buildEnvironment } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const codes = async (client: { get: (url: string) => Promise<{ json: () => unknown }> }, id: number) =>
  (
    (await client.get(`/api/environment-locale?environment=${id}`)).json() as { results: { code: string }[] }
  ).results.map((locale) => locale.code);
const locale = (id: number, code: string) => `/api/environment/${id}/locale/${code}`;

describe('DELETE /api/environment/:id/locale/:code', () => {
  test('an admin removes a locale with its own texts, never the last one', async () => {
    const { environment, admin } = await adminSetup(t);
    const added = await admin.post('/api/environment-locale', { environment: environment.id, code: 'nl_NL' });
    expect(added.statusCode, added.body).toBe(201);
    expect(await codes(admin, environment.id)).toEqual(['en_GB', 'nl_NL']);
    // a text of the locale itself goes with it; one of its language stays
    expect(
      (await put(admin, `/api/environment/${environment.id}/text/nl_NL/common.close`, { value: 'Dicht' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await put(admin, `/api/environment/${environment.id}/text/nl/common.cancel`, { value: 'Stop' }))
        .statusCode,
    ).toBe(200);

    const removed = await admin.delete(locale(environment.id, 'nl_NL'));
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await codes(admin, environment.id)).toEqual(['en_GB']);
    const left = await t.db
      .selectFrom('environment_text')
      .select(['locale', 'key'])
      .where('environment_id', '=', environment.id)
      .execute();
    expect(left).toEqual([{ locale: 'nl', key: 'common.cancel' }]);

    // the last one stays, with a message that says why
    const last = await admin.delete(locale(environment.id, 'en_GB'));
    expect(last.statusCode).toBe(400);
    expect(last.json()).toEqual({ errors: { code: ENVIRONMENT_MESSAGES.lastLanguage } });
    expect(await codes(admin, environment.id)).toEqual(['en_GB']);

    // a locale the environment does not have, or no locale at all
    const unknown = await admin.delete(locale(environment.id, 'de_DE'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: ENVIRONMENT_MESSAGES.unknownLanguage });
    expect((await admin.delete(locale(environment.id, 'xx_XX'))).statusCode).toBe(404);
    // added again, it can be taken away again
    await admin.post('/api/environment-locale', { environment: environment.id, code: 'nl_NL' });
    expect((await admin.delete(locale(environment.id, 'en_GB'))).statusCode).toBe(204);
    expect(await codes(admin, environment.id)).toEqual(['nl_NL']);
  });

  test('refused for an ordinary member, an admin of another environment and an anonymous caller', async () => {
    const { environment, admin, member, outsider } = await adminSetup(t);
    await admin.post('/api/environment-locale', { environment: environment.id, code: 'nl_NL' });
    expectForbidden(await member.delete(locale(environment.id, 'nl_NL')), 'member');
    // the outsider administers an environment of their own, not this one: told it does not exist
    expectNotFound(await outsider.delete(locale(environment.id, 'nl_NL')), 'outsider');
    const anonymous = await t.client().delete(locale(environment.id, 'nl_NL'));
    expect(anonymous.statusCode).toBe(401);
    expect(await codes(admin, environment.id)).toEqual(['en_GB', 'nl_NL']);
  });

  test('two admins removing the last two locales at once leave one', async () => {
    const { environment, admin } = await adminSetup(t);
    await admin.post('/api/environment-locale', { environment: environment.id, code: 'nl_NL' });
    const answers = await Promise.all([
      admin.delete(locale(environment.id, 'nl_NL')),
      admin.delete(locale(environment.id, 'en_GB')),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 400]);
    expect(await codes(admin, environment.id)).toHaveLength(1);
  });

  test("an environment's interface texts are served only in that environment", async () => {
    const { environment, admin, outsider, otherEnvironment } = await adminSetup(t);
    const third = await buildEnvironment(t.db);
    expect(
      (await put(admin, `/api/environment/${environment.id}/text/en/common.close`, { value: 'Shut' }))
        .statusCode,
    ).toBe(200);
    const own = await admin.get(`/api/environment/${environment.id}/text?locale=en_GB`);
    expect(own.json()).toEqual({ results: [{ locale: 'en', key: 'common.close', value: 'Shut' }] });
    const other = await outsider.get(`/api/environment/${otherEnvironment.id}/text?locale=en_GB`);
    expect(other.json()).toEqual({ results: [] });
    // and not read from outside: the outsider is no member of the first, nobody of the third
    expectNotFound(await outsider.get(`/api/environment/${environment.id}/text?locale=en_GB`), 'outsider');
    expectNotFound(await admin.get(`/api/environment/${third.id}/text?locale=en_GB`), 'third');
  });
});
