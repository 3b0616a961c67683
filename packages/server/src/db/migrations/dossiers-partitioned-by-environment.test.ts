import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// Dossiers, links and log rows move into one partition per environment, with every row, id and
// reference kept and every key led by environment_id.
const NAME = '2026-11-25T1500-dossiers-partitioned-by-environment';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
const one = async <T>(query: ReturnType<typeof sql<T>>) => (await rows(query))[0];

async function tenant(name: string) {
  const environment = await one(
    sql<{ id: number }>`insert into environment (name) values (${name}) returning id`,
  );
  const user = await one(
    sql<{
      id: number;
    }>`insert into app_user (username, email) values (${`u_${name}`}, ${`${name}@example.org`}) returning id`,
  );
  const entity = await one(
    sql<{
      id: number;
    }>`insert into def_dossier (environment_id, type) values (${environment.id}, 'main') returning id`,
  );
  const link = await one(sql<{
    id: number;
  }>`insert into def_dossier_link (environment_id, def_dossier_id, child_def_dossier_id, name, type_of_link)
    values (${environment.id}, ${entity.id}, ${entity.id}, 'related', 'select') returning id`);
  const dossiers = await rows(sql<{
    id: string;
  }>`insert into content_dossier (environment_id, def_dossier_id, summary, values, created_by)
    select ${environment.id}, ${entity.id}, ${name} || ' ' || n, jsonb_build_object('1', n), ${user.id}
    from generate_series(1, 5) n returning id`);
  const ids = dossiers.map((d) => Number(d.id));
  await sql`insert into content_link (environment_id, link_id, parent_id, child_id, rank)
    values (${environment.id}, ${link.id}, ${ids[0]}, ${ids[1]}, 0), (${environment.id}, ${link.id}, ${ids[0]}, ${ids[2]}, 1)`.execute(
    db,
  );
  for (const id of ids)
    await sql`insert into dossier_log (environment_id, content_dossier_id, def_dossier_id, type, user_id, username, changes)
      values (${environment.id}, ${id}, ${entity.id}, 'create', ${user.id}, ${`u_${name}`}, '[]'::jsonb)`.execute(
      db,
    );
  await sql`insert into favourite (environment_id, user_id, content_dossier_id) values (${environment.id}, ${user.id}, ${ids[3]})`.execute(
    db,
  );
  return { environment: environment.id, user: user.id, entity: entity.id, link: link.id, ids };
}

const snapshot = async () => ({
  dossiers: await rows(sql`select id, environment_id, def_dossier_id, summary, values, created_by, archived
    from content_dossier order by id`),
  links: await rows(
    sql`select id, environment_id, link_id, parent_id, child_id, rank from content_link order by id`,
  ),
  log: await rows(
    sql`select id, environment_id, content_dossier_id, type, username from dossier_log order by id`,
  ),
  favourites: await rows(sql`select environment_id, user_id, content_dossier_id from favourite order by id`),
});

test('every dossier, link, log row and favourite is kept, each in its environment; new environments get partitions', async () => {
  const a = await tenant('a');
  const b = await tenant('b');
  const before = await snapshot();
  expect(before.dossiers).toHaveLength(10);

  await m.migrateTo(NAME);

  expect(await snapshot()).toEqual(before);
  const partitions = await rows(sql<{ partition: string; parent: string }>`
    select c.relname as partition, p.relname as parent from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' order by 1`);
  const expected = [a.environment, b.environment].flatMap((id) => [
    { partition: `content_dossier_e${id}`, parent: 'content_dossier' },
    { partition: `content_link_e${id}`, parent: 'content_link' },
    { partition: `dossier_log_e${id}`, parent: 'dossier_log' },
  ]);
  expect(partitions).toEqual(expect.arrayContaining(expected));
  // each partition holds its own environment's rows only
  for (const t of [a, b]) {
    const counted = await one(sql<{ dossiers: number; links: number; log: number }>`select
      (select count(*)::int from ${sql.table(`content_dossier_e${t.environment}`)}) as dossiers,
      (select count(*)::int from ${sql.table(`content_link_e${t.environment}`)}) as links,
      (select count(*)::int from ${sql.table(`dossier_log_e${t.environment}`)}) as log`);
    expect(counted).toEqual({ dossiers: 5, links: 2, log: 5 });
  }

  // a link across environments is refused by the keys themselves
  await expect(
    sql`insert into content_link (environment_id, link_id, parent_id, child_id)
      values (${a.environment}, ${a.link}, ${a.ids[0]}, ${b.ids[0]})`.execute(db),
  ).rejects.toThrow(/foreign key/);
  // ids go on from where they were; deleting a dossier still takes its links and favourites with it
  const next = await one(sql<{ id: string }>`insert into content_dossier (environment_id, def_dossier_id)
    values (${a.environment}, ${a.entity}) returning id`);
  expect(Number(next.id)).toBeGreaterThan(Math.max(...b.ids));
  await sql`delete from content_dossier where environment_id = ${a.environment} and id = ${a.ids[0]}`.execute(
    db,
  );
  expect((await snapshot()).links.map((l) => Number((l as { parent_id: string }).parent_id))).not.toContain(
    a.ids[0],
  );
  await sql`delete from content_dossier where environment_id = ${a.environment} and id = ${a.ids[3]}`.execute(
    db,
  );
  expect((await snapshot()).favourites).toHaveLength(1);

  // an environment created afterwards gets its partitions at once
  const c = await one(sql<{ id: number }>`insert into environment (name) values ('c') returning id`);
  const entity = await one(
    sql<{ id: number }>`insert into def_dossier (environment_id, type) values (${c.id}, 'main') returning id`,
  );
  await sql`insert into content_dossier (environment_id, def_dossier_id) values (${c.id}, ${entity.id})`.execute(
    db,
  );
  const inC = await one(
    sql<{ n: number }>`select count(*)::int as n from ${sql.table(`content_dossier_e${c.id}`)}`,
  );
  expect(inC.n).toBe(1);
  // the data-version triggers still count writes to dossiers and links
  const version = await one(
    sql<{ version: string }>`select version from entity_data_version where def_dossier_id = ${entity.id}`,
  );
  expect(Number(version.version)).toBeGreaterThan(0);
});
