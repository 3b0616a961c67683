import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLink, buildPermission } from '../../test/entity-factories';
import { buildDefDossier, buildEnvironment, buildRole } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { entitiesShownToRoles, entityAndLinkedIds, entityInMenus } from './entity';
import type { EnvironmentAccess } from './environment';

const member = (roleIds: number[]) =>
  ({ user: { roles: ['ROLE_USER'] }, membership: { credentials: [], role_ids: roleIds } }) as unknown as Pick<
    EnvironmentAccess,
    'user' | 'membership'
  >;
const environmentAdmin = {
  user: { roles: ['ROLE_USER'] },
  membership: { credentials: ['environment-admin'], role_ids: [] },
} as unknown as Pick<EnvironmentAccess, 'user' | 'membership'>;

// one database for the tests that read one
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

describe('entityInMenus', () => {
  const entity = (id: number, type: 'main' | 'hidden' | 'other', visibility_roles: number[] = []) => ({
    id,
    type,
    visibility_roles,
  });
  const shown = new Set([1, 2, 3]);

  test('admins see every entity, hidden ones and those they may not show too', () => {
    for (const e of [entity(1, 'main'), entity(2, 'hidden'), entity(9, 'other', [77])])
      expect(entityInMenus(environmentAdmin, e, shown)).toBe(true);
  });

  test('members see shown entities that are not hidden, with a visibility role when any is named', () => {
    expect(entityInMenus(member([]), entity(1, 'main'), shown)).toBe(true);
    expect(entityInMenus(member([]), entity(2, 'hidden'), shown)).toBe(false);
    expect(entityInMenus(member([]), entity(9, 'main'), shown)).toBe(false);
    expect(entityInMenus(member([5]), entity(3, 'other', [5, 6]), shown), 'holds a visibility role').toBe(
      true,
    );
    expect(entityInMenus(member([7]), entity(3, 'other', [5, 6]), shown), 'holds none').toBe(false);
  });
});

describe('entitiesShownToRoles', () => {
  test('the entities whose show permission one of the roles holds, in the environments asked for', async () => {
    const a = await buildEnvironment(t.db);
    const b = await buildEnvironment(t.db);
    const [readers, writers] = [await buildRole(t.db, a.id), await buildRole(t.db, a.id)];
    const other = await buildRole(t.db, b.id);
    const [shown, editedOnly] = [await buildDefDossier(t.db, a.id), await buildDefDossier(t.db, a.id)];
    const elsewhere = await buildDefDossier(t.db, b.id);
    await buildPermission(t.db, shown, readers.id, ['show']);
    await buildPermission(t.db, editedOnly, writers.id, ['edit']);
    await buildPermission(t.db, elsewhere, other.id, ['show']);

    expect([...(await entitiesShownToRoles(t.db, [a.id], [readers.id, writers.id]))]).toEqual([shown.id]);
    expect([...(await entitiesShownToRoles(t.db, [a.id, b.id], [other.id]))]).toEqual([elsewhere.id]);
    expect((await entitiesShownToRoles(t.db, [b.id], [readers.id])).size).toBe(0);
    expect((await entitiesShownToRoles(t.db, [a.id], [])).size).toBe(0);
  });
});

describe('entityAndLinkedIds', () => {
  test("the entity and those its links join, either side, following a new link (the cache's key moves)", async () => {
    const environment = await buildEnvironment(t.db);
    const [cases, clients, notes, unlinked] = [
      await buildDefDossier(t.db, environment.id),
      await buildDefDossier(t.db, environment.id),
      await buildDefDossier(t.db, environment.id),
      await buildDefDossier(t.db, environment.id),
    ];
    await buildLink(t.db, cases, clients);
    // the environment row as each call's sign-in reads it: its config_version keys the cache
    const access = async () =>
      ({
        environment: await t.db
          .selectFrom('environment')
          .selectAll()
          .where('id', '=', environment.id)
          .executeTakeFirstOrThrow(),
        membership: null,
        user: { roles: ['ROLE_SUPER_ADMIN'] },
      }) as unknown as EnvironmentAccess;
    const byId = (ids: number[]) => [...ids].sort((a, b) => a - b);
    const sorted = async (id: number) => byId(await entityAndLinkedIds(t.db, await access(), id));
    expect(await sorted(cases.id)).toEqual(byId([cases.id, clients.id]));
    expect(await sorted(clients.id), 'the child side').toEqual(byId([cases.id, clients.id]));
    expect(await sorted(unlinked.id)).toEqual([unlinked.id]);

    await buildLink(t.db, notes, cases);
    expect(await sorted(cases.id), 'a link added since').toEqual(byId([cases.id, clients.id, notes.id]));
  });
});
