import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDefDossier, buildEnvironment, buildUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { HttpError } from '../http-errors';
import { openConfigList } from './configuration';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof HttpError ? error.statusCode : error),
  );

describe('openConfigList', () => {
  test("an environment admin lists their environment's configuration, of one entity or all", async () => {
    const admin = await buildUser(t.db);
    const environment = await buildEnvironment(t.db, {
      members: [{ user: admin, credentials: ['environment-admin'] }],
    });
    const entity = await buildDefDossier(t.db, environment.id);

    const whole = await openConfigList(t.db, admin, { environment: environment.id });
    expect(whole).toMatchObject({ environmentId: environment.id });
    expect(whole.defDossierId).toBeUndefined();
    const one = await openConfigList(t.db, admin, { environment: environment.id, defDossier: entity.id });
    expect(one).toMatchObject({ environmentId: environment.id, defDossierId: entity.id });
    // the entity alone names its environment
    expect(await openConfigList(t.db, admin, { defDossier: entity.id })).toMatchObject({
      environmentId: environment.id,
      defDossierId: entity.id,
    });
  });

  test('members 403, other tenants and unknown entities 404, neither environment nor entity 400', async () => {
    const [admin, member, stranger] = [await buildUser(t.db), await buildUser(t.db), await buildUser(t.db)];
    const environment = await buildEnvironment(t.db, {
      members: [
        { user: admin, credentials: ['environment-admin'] },
        { user: member, credentials: ['export'] },
      ],
    });
    const other = await buildEnvironment(t.db, {
      members: [{ user: stranger, credentials: ['environment-admin'] }],
    });
    const entity = await buildDefDossier(t.db, environment.id);
    const foreign = await buildDefDossier(t.db, other.id);

    expect(await statusOf(openConfigList(t.db, member, { environment: environment.id }))).toBe(403);
    expect(await statusOf(openConfigList(t.db, member, { defDossier: entity.id }))).toBe(403);
    expect(await statusOf(openConfigList(t.db, stranger, { environment: environment.id }))).toBe(404);
    expect(await statusOf(openConfigList(t.db, stranger, { defDossier: entity.id }))).toBe(404);
    expect(
      await statusOf(openConfigList(t.db, admin, { environment: environment.id, defDossier: foreign.id })),
    ).toBe(404);
    expect(await statusOf(openConfigList(t.db, admin, { defDossier: 999_999 }))).toBe(404);
    expect(await statusOf(openConfigList(t.db, admin, {}))).toBe(400);
  });
});
