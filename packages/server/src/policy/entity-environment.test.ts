import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDefDossier, buildEnvironment } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { environmentOfEntity } from './entity-environment';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

describe('environmentOfEntity', () => {
  it("answers an entity's environment, null for an id that is no entity (and finds it once it is one)", async () => {
    // one after the other: each creates its partitions
    const one = await buildEnvironment(t.db);
    const two = await buildEnvironment(t.db);
    const [a, b] = await Promise.all([buildDefDossier(t.db, one.id), buildDefDossier(t.db, two.id)]);
    expect(await environmentOfEntity(t.db, a.id)).toBe(one.id);
    expect(await environmentOfEntity(t.db, b.id)).toBe(two.id);
    const next = b.id + 1000;
    expect(await environmentOfEntity(t.db, next)).toBeNull();
    await t.db
      .insertInto('def_dossier')
      .values({
        id: next,
        environment_id: one.id,
        type: 'main',
        rank: 0,
        visibility_roles: [],
        translations: JSON.stringify([
          { culture: 'en_GB', name: 'Later', name_singular: 'Later', name_plural: 'Later' },
        ]),
        settings: {},
      })
      .execute();
    expect(await environmentOfEntity(t.db, next)).toBe(one.id);
  });

  it('refuses to move an entity to another environment; its other columns change', async () => {
    // one after the other: each creates its partitions
    const one = await buildEnvironment(t.db);
    const two = await buildEnvironment(t.db);
    const entity = await buildDefDossier(t.db, one.id);
    await expect(
      t.db.updateTable('def_dossier').set({ environment_id: two.id }).where('id', '=', entity.id).execute(),
    ).rejects.toThrow(/an entity never moves to another environment/);
    await t.db.updateTable('def_dossier').set({ rank: 7 }).where('id', '=', entity.id).execute();
    expect(await environmentOfEntity(t.db, entity.id)).toBe(one.id);
  });
});
