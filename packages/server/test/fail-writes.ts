import { sql } from 'kysely';
import type { Db } from '../src/db/database';

/**
 * Makes the database refuse a write of a dossier row (insert or update) whose id or values text
 * matches, in the middle of whatever transaction writes it: a failure injected into a multi-step
 * action, which must then leave nothing half done. Returns the function that removes it again.
 */
export async function failDossierWrites(db: Db, match: { id?: number; valuesContain?: string }) {
  const condition =
    match.id !== undefined
      ? sql`new.id = ${sql.lit(match.id)}`
      : sql`new.values::text like ${sql.lit(`%${match.valuesContain ?? ''}%`)}`;
  await sql`
    create or replace function test_fail_dossier_write() returns trigger language plpgsql as $$
    begin
      if ${condition} then raise exception 'injected failure'; end if;
      return new;
    end $$`.execute(db);
  await sql`drop trigger if exists test_fail_dossier_write on content_dossier`.execute(db);
  await sql`
    create trigger test_fail_dossier_write before insert or update on content_dossier
    for each row execute function test_fail_dossier_write()`.execute(db);
  return async () => {
    await sql`drop trigger if exists test_fail_dossier_write on content_dossier`.execute(db);
  };
}
