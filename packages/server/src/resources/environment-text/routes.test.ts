import { ENVIRONMENT_TEXT_MAX_LENGTH, ENVIRONMENT_TEXT_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminSetup, expectForbidden, expectNotFound, put } from '../../../test/entity-test-setup';
import { addMember, buildEnvironment } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const texts = (environmentId: number, locale: string) =>
  `/api/environment/${environmentId}/text?locale=${locale}`;
const text = (environmentId: number, locale: string, key: string) =>
  `/api/environment/${environmentId}/text/${locale}/${key}`;

describe('interface texts of an environment', () => {
  test('an override is served only in its environment, for its language and its locales', async () => {
    const { environment, admin, member, outsider, otherEnvironment } = await adminSetup(t);
    const saved = await put(admin, text(environment.id, 'nl', 'common.cancel'), { value: ' Stoppen ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ locale: 'nl', key: 'common.cancel', value: 'Stoppen' });
    // the environment's locale (en_GB, from the factory) rewords a key of its own
    expect(
      (await put(admin, text(environment.id, 'en_GB', 'common.search'), { value: 'Find' })).statusCode,
    ).toBe(200);
    // written again, it is replaced
    await put(admin, text(environment.id, 'nl', 'common.close'), { value: 'Dicht' });
    await put(admin, text(environment.id, 'nl', 'common.close'), { value: 'Sluiten!' });

    // every member reads them: a locale gets its language's texts, then its own
    const dutch = await member.get(texts(environment.id, 'nl_NL'));
    expect(dutch.statusCode, dutch.body).toBe(200);
    expect(dutch.json()).toEqual({
      results: [
        { locale: 'nl', key: 'common.cancel', value: 'Stoppen' },
        { locale: 'nl', key: 'common.close', value: 'Sluiten!' },
      ],
    });
    expect((await member.get(texts(environment.id, 'en_GB'))).json()).toEqual({
      results: [{ locale: 'en_GB', key: 'common.search', value: 'Find' }],
    });
    expect((await member.get(texts(environment.id, 'de_DE'))).json()).toEqual({ results: [] });

    // another environment has none of them
    expect((await outsider.get(texts(otherEnvironment.id, 'nl_NL'))).json()).toEqual({ results: [] });
  });

  test('a member who is not an admin of the environment cannot write or delete one', async () => {
    const { environment, admin, member, outsider, otherEnvironment } = await adminSetup(t);
    await put(admin, text(environment.id, 'nl', 'common.cancel'), { value: 'Stoppen' });
    expectForbidden(await put(member, text(environment.id, 'nl', 'common.cancel'), { value: 'Mine' }), 'put');
    expectForbidden(await member.delete(text(environment.id, 'nl', 'common.cancel')), 'delete');
    // an admin of another environment who is an ordinary member here
    const [outsiderId] = await t.db
      .selectFrom('environment_user')
      .select('user_id')
      .where('environment_id', '=', otherEnvironment.id)
      .execute();
    await addMember(t.db, environment.id, { user: { id: outsiderId.user_id }, credentials: [] });
    expectForbidden(
      await put(outsider, text(environment.id, 'nl', 'common.cancel'), { value: 'Mine' }),
      'put',
    );
    expect((await admin.get(texts(environment.id, 'nl'))).json().results).toEqual([
      { locale: 'nl', key: 'common.cancel', value: 'Stoppen' },
    ]);
  });

  test('a user who is not a member cannot read them, and nobody signed out can', async () => {
    const { environment, admin, outsider } = await adminSetup(t);
    await put(admin, text(environment.id, 'nl', 'common.cancel'), { value: 'Stoppen' });
    expectNotFound(await outsider.get(texts(environment.id, 'nl')), 'read by a non-member');
    expectNotFound(await put(outsider, text(environment.id, 'nl', 'common.cancel'), { value: 'x' }), 'put');
    expect((await t.client().get(texts(environment.id, 'nl'))).statusCode).toBe(401);
  });

  test('refused: a key the catalogue lacks, a language the environment lacks, markup, an empty or too long text', async () => {
    const environment = await buildEnvironment(t.db, { locales: ['nl_NL'] });
    const signedIn = await t.signIn();
    await addMember(t.db, environment.id, { user: signedIn.user, credentials: ['environment-admin'] });
    const admin = signedIn.client;
    const refused = async (locale: string, key: string, value: unknown) => {
      const response = await put(admin, text(environment.id, locale, key), { value });
      expect(response.statusCode, response.body).toBe(400);
      return response.json();
    };
    expect(await refused('nl', 'common.no_such_text', 'x')).toEqual({
      errors: { key: `${ENVIRONMENT_TEXT_MESSAGES.unknownKey} 'common.no_such_text'` },
    });
    // a group of texts is not a text
    expect(await refused('nl', 'common', 'x')).toEqual({
      errors: { key: `${ENVIRONMENT_TEXT_MESSAGES.unknownKey} 'common'` },
    });
    expect(await refused('fr_FR', 'common.cancel', 'x')).toEqual({
      errors: { locale: ENVIRONMENT_TEXT_MESSAGES.unknownLocale },
    });
    expect(await refused('nl', 'common.cancel', 'Click <b>here</b>')).toEqual({
      errors: { value: ENVIRONMENT_TEXT_MESSAGES.markup },
    });
    expect(await refused('nl', 'common.cancel', '<img src=x onerror=alert(1)>')).toEqual({
      errors: { value: ENVIRONMENT_TEXT_MESSAGES.markup },
    });
    expect(await refused('nl', 'common.cancel', 'x'.repeat(ENVIRONMENT_TEXT_MAX_LENGTH + 1))).toEqual({
      errors: { value: ENVIRONMENT_TEXT_MESSAGES.tooLong },
    });
    expect((await refused('nl', 'common.cancel', '  ')).errors.value).toBeTruthy();
    // a comparison sign is text: the catalogue has them
    expect(
      (await put(admin, text(environment.id, 'nl_NL', 'common.cancel'), { value: 'a < b' })).statusCode,
    ).toBe(200);
    // the six catalogues' languages, and the environment's own locales; nothing stored by the refusals
    expect((await admin.get(texts(environment.id, 'nl_NL'))).json().results).toEqual([
      { locale: 'nl_NL', key: 'common.cancel', value: 'a < b' },
    ]);
  });

  test('deleted, the catalogue text is back; deleting one the environment does not have answers 404', async () => {
    const { environment, admin } = await adminSetup(t);
    await put(admin, text(environment.id, 'de', 'common.cancel'), { value: 'Halt' });
    const deleted = await admin.delete(text(environment.id, 'de', 'common.cancel'));
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await admin.get(texts(environment.id, 'de_DE'))).json()).toEqual({ results: [] });
    expectNotFound(await admin.delete(text(environment.id, 'de', 'common.cancel')), 'deleted twice');
  });
});
