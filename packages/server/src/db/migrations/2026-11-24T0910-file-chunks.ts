import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A file's bytes move from one bytea value (read and written whole, so a handful of parallel uploads
// or downloads filled the heap) into rows of 256 KiB, written and read one at a time.
const CHUNK = 256 * 1024;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Keys include environment_id (ARCHITECTURE.md, data model): the chunks of a file go where its row goes.
  await sql`alter table file add constraint file_environment_id_id_key unique (environment_id, id)`.execute(
    db,
  );
  await sql`drop index file_environment_idx`.execute(db);
  await sql`
    create table file_chunk (
      environment_id integer not null,
      file_id integer not null,
      seq integer not null,
      bytes bytea not null,
      primary key (environment_id, file_id, seq),
      foreign key (environment_id, file_id) references file (environment_id, id) on delete cascade
    )`.execute(db);
  await sql`
    insert into file_chunk (environment_id, file_id, seq, bytes)
    select f.environment_id, f.id, s.seq, substring(f.content from s.seq * ${sql.lit(CHUNK)} + 1 for ${sql.lit(CHUNK)})
    from file f
    cross join lateral generate_series(0, ceil(octet_length(f.content) / ${sql.lit(CHUNK)}.0)::integer - 1) as s(seq)
  `.execute(db);
  await sql`alter table file drop column content`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file add column content bytea not null default ''`.execute(db);
  await sql`
    update file f set content = c.bytes
    from (select environment_id, file_id, string_agg(bytes, '' order by seq) as bytes
          from file_chunk group by environment_id, file_id) c
    where c.environment_id = f.environment_id and c.file_id = f.id
  `.execute(db);
  await sql`alter table file alter column content drop default`.execute(db);
  await db.schema.dropTable('file_chunk').execute();
  await sql`create index file_environment_idx on file (environment_id, id)`.execute(db);
  await sql`alter table file drop constraint file_environment_id_id_key`.execute(db);
}
