import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A summary item (display item of the 'summary' view) may be restricted to roles. content_dossier.summary
// keeps the summary of every item; `summaries` keeps, for dossiers of entities with restricted summary
// items only, the summary of each visibility class (keyed by the restricted items and those the class
// may see), so lists and quick search read a stored text for every reader. summary_texts() joins the
// stored variants for a trigram index, so a search on a variant has an index to narrow it with.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table content_dossier add column summaries jsonb`.execute(db);
  await sql`
    create function summary_texts(jsonb) returns text language sql immutable strict parallel safe as $$
      select string_agg(value, E'\n') from jsonb_each_text($1)
    $$`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  const trigramOps = sql`${sql.id(rows[0].schema)}.gin_trgm_ops`;
  await sql`create index content_dossier_summaries_trgm_idx on content_dossier
    using gin (summary_texts(summaries) ${trigramOps}) where summaries is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index content_dossier_summaries_trgm_idx`.execute(db);
  await sql`drop function summary_texts(jsonb)`.execute(db);
  await sql`alter table content_dossier drop column summaries`.execute(db);
}
