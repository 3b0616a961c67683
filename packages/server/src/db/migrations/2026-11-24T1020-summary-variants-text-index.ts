import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// The trigram index over the summary variants reads their JSON text (summaries::text) instead of
// summary_texts(): that SQL function cost about 9 µs a row wherever the planner evaluated it (a count
// of a million dossiers took 10.5 s, the JSON text 2.2 s). A search escapes its text as JSON does, so
// a variant that holds it still has the JSON text hold it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop statistics content_dossier_summary_texts_stats`.execute(db);
  await sql`drop index content_dossier_summaries_trgm_idx`.execute(db);
  await sql`drop function summary_texts(jsonb)`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  const trigramOps = sql`${sql.id(rows[0].schema)}.gin_trgm_ops`;
  await sql`create index content_dossier_summaries_trgm_idx on content_dossier
    using gin ((summaries::text) ${trigramOps}) where summaries is not null`.execute(db);
  // a partial index's expression statistics are not used for estimates: these are
  await sql`create statistics content_dossier_summaries_text_stats on ((summaries::text)) from content_dossier`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop statistics content_dossier_summaries_text_stats`.execute(db);
  await sql`drop index content_dossier_summaries_trgm_idx`.execute(db);
  await sql`
    create function summary_texts(jsonb) returns text language sql immutable strict parallel safe as $$
      select string_agg(value, E'\n') from jsonb_each_text($1)
    $$`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  await sql`create index content_dossier_summaries_trgm_idx on content_dossier
    using gin (summary_texts(summaries) ${sql`${sql.id(rows[0].schema)}.gin_trgm_ops`}) where summaries is not null`.execute(
    db,
  );
  await sql`create statistics content_dossier_summary_texts_stats on (summary_texts(summaries)) from content_dossier`.execute(
    db,
  );
}
