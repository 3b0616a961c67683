import {
  type DossierQuery,
  type dossierQueryCreateSchema,
  type dossierQueryPatchSchema,
  type Pager,
  QUERY_LIMITS,
  type QueryDocument,
  todayYmd,
} from '@dossierbase/core';
import type { Selectable } from 'kysely';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import type { DossierQueryTable, UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { type LinkRow, visibleItems } from '../../policy/display-item';
import { canShowDossiers } from '../../policy/dossier';
import { entityPermissions } from '../../policy/entity';
import type { EnvironmentAccess } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { type Column, columnOf } from '../../query/compile/columns';
import { QueryCompileError } from '../../query/compile/conditions';
import {
  archivedSql,
  type CompileContext,
  compileDocument,
  type EntityScope,
  reachedLinks,
  type SavedQuery,
} from '../../query/compile/document';

type Row = Selectable<DossierQueryTable>;
export const QUERY_VIEWS = ['list', 'search', 'advanced-search', 'show/edit'];

/** The fields (visible to this user) and the links of an entity, as the compiler reads them. */
async function entityScope(db: Db, access: EnvironmentAccess, defDossierId: number): Promise<EntityScope> {
  const [visible, summaryKeys, links] = await Promise.all([
    visibleItems(db, access, defDossierId, QUERY_VIEWS),
    readerSummaryKeys(db, access),
    db
      .selectFrom('def_dossier_link')
      .selectAll()
      .where('environment_id', '=', access.environment.id)
      .where('def_dossier_id', '=', defDossierId)
      .execute(),
  ]);
  const summaryKey = summaryKeys.get(defDossierId);
  const fields = new Map<number, Column>();
  for (const v of visible) {
    const column = columnOf(v, summaryKey);
    if (column?.kind === 'field') fields.set(column.dataFieldId, column);
  }
  return { defDossierId, fields, links: new Map(links.map((l) => [l.id, l as LinkRow])), summaryKey };
}

/**
 * Everything a document over `defDossierId` reaches, loaded for the compiler: the entities its link
 * conditions lead to (only those the user may show) and the saved queries it names, each followed
 * to the nesting limit.
 */
export async function compileContext(
  db: Db,
  access: EnvironmentAccess,
  user: UserRow,
  document: QueryDocument,
): Promise<CompileContext> {
  const entities = new Map<number, EntityScope>();
  const queries = new Map<number, SavedQuery>();
  let pending = [document];
  for (let round = 0; round <= QUERY_LIMITS.depth && pending.length; round++) {
    const reached = pending.map(reachedLinks);
    const linkIds = [...new Set(reached.flatMap((r) => r.links))];
    const queryIds = [...new Set(reached.flatMap((r) => r.queries))].filter((id) => !queries.has(id));
    pending = [];
    if (linkIds.length) {
      const links = await db
        .selectFrom('def_dossier_link')
        .select('child_def_dossier_id')
        .where('environment_id', '=', access.environment.id)
        .where('id', 'in', linkIds)
        .execute();
      for (const { child_def_dossier_id: id } of links) {
        if (entities.has(id)) continue;
        if (!canShowDossiers({ permissions: await entityPermissions(db, access, id) })) continue;
        entities.set(id, await entityScope(db, access, id));
      }
    }
    if (queryIds.length) {
      const rows = await db
        .selectFrom('dossier_query')
        .selectAll()
        .where('environment_id', '=', access.environment.id)
        .where('id', 'in', queryIds)
        .execute();
      for (const row of rows) {
        queries.set(row.id, { id: row.id, defDossierId: row.def_dossier_id, document: row.data });
        pending.push(row.data);
      }
    }
  }
  return { environmentId: access.environment.id, userId: user.id, today: todayYmd(), entities, queries };
}

/**
 * The document as one SQL condition (archived filter included) over `content_dossier` of the entity,
 * for this user; a condition the user may not ask (hidden or unknown field, link or query) is a 400.
 */
export async function compileForUser(
  db: Db,
  access: EnvironmentAccess,
  user: UserRow,
  defDossierId: number,
  document: QueryDocument,
  self?: number,
): Promise<{ condition: RawBuilder<boolean> }> {
  const [scope, ctx] = await Promise.all([
    entityScope(db, access, defDossierId),
    compileContext(db, access, user, document),
  ]);
  try {
    const condition = compileDocument(document, scope, ctx, self ? [self] : []);
    // wrapped: a RawBuilder refuses to be awaited
    return {
      condition: sql<boolean>`(${archivedSql('content_dossier', document.include_archived)} and ${condition})`,
    };
  } catch (error) {
    if (error instanceof QueryCompileError) throw badRequest({ [`data.${error.field}`]: error.message });
    throw error;
  }
}

/** How many dossiers of the entity match the document (for the editor's live count). */
export async function countMatching(
  db: Db,
  access: EnvironmentAccess,
  user: UserRow,
  defDossierId: number,
  document: QueryDocument,
): Promise<number> {
  const { condition } = await compileForUser(db, access, user, defDossierId, document);
  const { n } = await db
    .selectFrom('content_dossier')
    .select(sql<string>`count(*)`.as('n'))
    .where('environment_id', '=', access.environment.id)
    .where('def_dossier_id', '=', defDossierId)
    .where(condition)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function findQuery(db: Db, id: number): Promise<Row> {
  const row = await db.selectFrom('dossier_query').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A saved query of this environment and entity, for the list call's `dossierQuery`; else 400. */
export async function savedQueryOf(db: Db, environmentId: number, defDossierId: number, id: number) {
  const row = await db
    .selectFrom('dossier_query')
    .selectAll()
    .where('id', '=', id)
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', defDossierId)
    .executeTakeFirst();
  if (!row) throw badRequest({ dossierQuery: 'Unknown query' });
  return row;
}

export async function listQueries(
  db: Db,
  environmentId: number,
  query: { defDossier?: number; search?: string; limit: number; page: number },
): Promise<{ rows: Row[]; pager: Pager }> {
  let base = db.selectFrom('dossier_query').where('environment_id', '=', environmentId);
  if (query.defDossier !== undefined) base = base.where('def_dossier_id', '=', query.defDossier);
  const search = query.search?.trim();
  if (search)
    base = base.where(
      sql<boolean>`exists (select 1 from jsonb_array_elements(translations) t
        where t ->> 'search_name' ilike ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`})`,
    );
  return paginate(base, (q) => q.selectAll().orderBy('id'), { page: query.page, limit: query.limit });
}

type Create = z.infer<typeof dossierQueryCreateSchema>;
type Patch = z.infer<typeof dossierQueryPatchSchema>;

export async function createQuery(
  db: Db,
  access: EnvironmentAccess,
  user: UserRow,
  body: Create,
): Promise<Row> {
  await compileForUser(db, access, user, body.defDossier, body.data);
  return db
    .insertInto('dossier_query')
    .values({
      environment_id: access.environment.id,
      def_dossier_id: body.defDossier,
      data: body.data,
      translations: body.translations,
      created_by: user.id,
      modified_by: user.id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateQuery(
  db: Db,
  access: EnvironmentAccess,
  user: UserRow,
  row: Row,
  body: Patch,
): Promise<Row> {
  // a query that names itself (directly or through others) is refused by the compiler's cycle check
  if (body.data) await compileForUser(db, access, user, row.def_dossier_id, body.data, row.id);
  return db
    .updateTable('dossier_query')
    .set({
      ...(body.data ? { data: body.data } : {}),
      ...(body.translations ? { translations: body.translations } : {}),
      modified_by: user.id,
      modified_at: sql`now()`,
    })
    .where('id', '=', row.id)
    .where('environment_id', '=', row.environment_id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes the query unless another query names it (409-style 400 naming where it is used). */
export async function deleteQuery(db: Db, row: Row): Promise<void> {
  const users = await db
    .selectFrom('dossier_query')
    .select('id')
    .where('environment_id', '=', row.environment_id)
    .where('id', '<>', row.id)
    .where(sql<boolean>`data::text ~ ${`"where_other_query": ?${row.id}[,}]`}`)
    .execute();
  if (users.length)
    throw badRequest({ id: `This query is used by query ${users.map((u) => u.id).join(', ')}` });
  await db
    .deleteFrom('dossier_query')
    .where('id', '=', row.id)
    .where('environment_id', '=', row.environment_id)
    .execute();
}

export async function presentQuery(db: Db, row: Row): Promise<DossierQuery> {
  const ids = [row.created_by, row.modified_by].filter((id): id is number => id !== null);
  const users = new Map(
    (ids.length
      ? await db.selectFrom('app_user').select(['id', 'username']).where('id', 'in', ids).execute()
      : []
    ).map((u) => [u.id, u.username]),
  );
  const ref = (id: number | null) =>
    id !== null && users.has(id) ? { id, username: users.get(id) as string } : null;
  return {
    id: row.id,
    uuid: row.uuid,
    environment: { id: row.environment_id },
    def_dossier: { id: row.def_dossier_id },
    data: row.data,
    translations: row.translations,
    created_by: ref(row.created_by),
    modified_by: ref(row.modified_by),
    created_at: row.created_at.toISOString(),
    modified_at: row.modified_at.toISOString(),
  };
}
