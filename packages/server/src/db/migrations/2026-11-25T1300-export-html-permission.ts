import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// The permission to export HTML was named 'export_hml'; the spec (document 2, section 6) names it
// 'export_html'. Stored permissions are renamed with it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update permission set actions = array_replace(actions, 'export_hml', 'export_html')
    where 'export_hml' = any(actions)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update permission set actions = array_replace(actions, 'export_html', 'export_hml')
    where 'export_html' = any(actions)`.execute(db);
}
