import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { usernamesOf } from './usernames';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

describe('usernames', () => {
  it('names the users of the ids given; none for null or an unknown id', async () => {
    const [ann, bob] = await Promise.all([buildUser(t.db), buildUser(t.db)]);
    const nameOf = await usernamesOf(t.db, [ann.id, bob.id, ann.id, null, 999_999]);
    expect(nameOf(ann.id)).toBe(ann.username);
    expect(nameOf(bob.id)).toBe(bob.username);
    expect(nameOf(null)).toBeNull();
    expect(nameOf(999_999)).toBeNull();
  });

  it('refuses to rename a user, and lets every other column of the row change', async () => {
    const user = await buildUser(t.db);
    await expect(
      t.db
        .updateTable('app_user')
        .set({ username: `${user.username}_2` })
        .where('id', '=', user.id)
        .execute(),
    ).rejects.toThrow(/a username never changes/);
    await t.db
      .updateTable('app_user')
      .set({ username: user.username, first_name: 'Renamed' })
      .where('id', '=', user.id)
      .execute();
    const row = await t.db
      .selectFrom('app_user')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: user.username, first_name: 'Renamed' });
  });

  it('keeps a name once read (which is why a rename is refused): a second call reads nothing', async () => {
    const user = await buildUser(t.db);
    expect((await usernamesOf(t.db, [user.id]))(user.id)).toBe(user.username);
    // past the guard, as only an operator could: the node still answers the name it read
    await sql`alter table app_user disable trigger app_user_username_fixed`.execute(t.db);
    try {
      await t.db
        .updateTable('app_user')
        .set({ username: 'renamed_behind' })
        .where('id', '=', user.id)
        .execute();
    } finally {
      await sql`alter table app_user enable trigger app_user_username_fixed`.execute(t.db);
    }
    expect((await usernamesOf(t.db, [user.id]))(user.id)).toBe(user.username);
  });
});
