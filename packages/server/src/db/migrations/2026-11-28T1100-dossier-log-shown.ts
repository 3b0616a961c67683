import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Opening a dossier writes a 'shown' log entry at most once per user and dossier per hour: this
// index answers "has this user opened it within the hour" on every detail read, and the log modal's
// filter by user, without reading the dossier's other entries. Each partition gets its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index dossier_log_user_idx
    on dossier_log (environment_id, content_dossier_id, user_id, type, created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index dossier_log_user_idx`.execute(db);
}
