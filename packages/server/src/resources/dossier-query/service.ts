import {
  type DossierQuery,
  type dossierQueryCreateSchema,
  type dossierQueryPatchSchema,
  fieldSettingsOf,
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
import { type LinkRow, type VisibleItem, visibleItems } from '../../policy/display-item';
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
import { likeContains } from '../../query/list-query';

type Row = Selectable<DossierQueryTable>;
export const QUERY_VIEWS = ['list', 'search', 'advanced-search', 'show/edit'];

/** The fields (visible to this user) and the links of an entity, as the compiler reads them. */
export async function entityScope(
  db: Db,
  access: EnvironmentAccess,
  defDossierId: number,
): Promise<EntityScope> {
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

/**
 * The saved query that restricts a link item's choices: its default_val_dos_query (an id), or the
 * query limit_output_to_mis_item names (a uuid), of the link's child entity; null without one.
 */
export async function linkRestriction(db: Db, environmentId: number, v: VisibleItem): Promise<Row | null> {
  if (!v.link) return null;
  const settings = fieldSettingsOf(v);
  const id = typeof settings.default_val_dos_query === 'number' ? settings.default_val_dos_query : null;
  const uuid = typeof settings.limit_output_to_mis_item === 'string' ? settings.limit_output_to_mis_item : '';
  if (id === null && !UUID.test(uuid)) return null;
  const row = await db
    .selectFrom('dossier_query')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', v.link.child_def_dossier_id)
    .where((eb) => (id !== null ? eb('id', '=', id) : eb('uuid', '=', uuid)))
    .executeTakeFirst();
  return row ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findQuery(db: Db, id: number): Promise<Row> {
  const row = await db.selectFrom('dossier_query').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A saved query of this environment and entity; else 400 on `field` (the parameter that named it). */
export async function savedQueryOf(
  db: Db,
  environmentId: number,
  defDossierId: number,
  id: number,
  field = 'dossierQuery',
) {
  const row = await db
    .selectFrom('dossier_query')
    .selectAll()
    .where('id', '=', id)
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', defDossierId)
    .executeTakeFirst();
  if (!row) throw badRequest({ [field]: 'Unknown query' });
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
        where t ->> 'search_name' ilike ${likeContains(search)})`,
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

export const QUERY_IN_USE = 'This query is still in use';

/**
 * Where a query is used: entities (default or menu query), links and display items (restricting a
 * picker, or a condition), other queries. Named as the admin knows them.
 */
export async function usesOfQuery(db: Db, row: Row): Promise<string[]> {
  const env = row.environment_id;
  const id = String(row.id);
  const named = (translations: { name?: string }[] | null | undefined, fallback: string) =>
    translations?.[0]?.name || fallback;
  const [entities, links, items, queries] = await Promise.all([
    db
      .selectFrom('def_dossier')
      .select(['id', 'translations'])
      .where('environment_id', '=', env)
      .where(
        sql<boolean>`(settings -> 'query_settings' ->> 'default_query' = ${id}
          or coalesce(settings -> 'query_settings' -> 'menu_queries', '[]'::jsonb) @> ${JSON.stringify([{ queryUuid: row.uuid }])}::jsonb)`,
      )
      .execute(),
    db
      .selectFrom('def_dossier_link')
      .select(['id', 'name'])
      .where('environment_id', '=', env)
      .where(
        sql<boolean>`(settings ->> 'default_val_dos_query' = ${id} or settings ->> 'limit_output_to_mis_item' = ${row.uuid})`,
      )
      .execute(),
    db
      .selectFrom('display_item')
      .select(['id'])
      .where('environment_id', '=', env)
      .where(
        sql<boolean>`(settings ->> 'condition_query' in (${id}, ${row.uuid}) or settings ->> 'default_val_dos_query' = ${id}
          or settings ->> 'limit_output_to_mis_item' = ${row.uuid})`,
      )
      .execute(),
    db
      .selectFrom('dossier_query')
      .select('id')
      .where('environment_id', '=', env)
      .where('id', '<>', row.id)
      .where(sql<boolean>`data::text ~ ${`"where_other_query": ?${row.id}[,}]`}`)
      .execute(),
  ]);
  return [
    ...entities.map((e) => named(e.translations, `#${e.id}`)),
    ...links.map((l) => l.name || `#${l.id}`),
    ...items.map((i) => `#${i.id}`),
    ...queries.map((q) => `#${q.id}`),
  ];
}

/** Deletes the query unless something uses it (400 naming where). */
export async function deleteQuery(db: Db, row: Row): Promise<void> {
  const uses = await usesOfQuery(db, row);
  if (uses.length) throw badRequest({ id: QUERY_IN_USE, used_by: uses.join(', ') });
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

/**
 * The items without a condition query, and those whose condition query (settings.condition_query: a
 * query of the entity, by id or uuid) the dossier matches as this user may read it. An item whose
 * query is gone, or names what the user may not see, is not shown.
 */
export async function itemsShownFor(
  db: Db,
  access: EnvironmentAccess,
  dossier: { id: number | string; def_dossier_id: number },
  items: VisibleItem[],
): Promise<VisibleItem[]> {
  const refOf = (v: VisibleItem) => {
    const ref = (v.item.settings as Record<string, unknown> | null)?.condition_query;
    return typeof ref === 'number' || (typeof ref === 'string' && ref !== '') ? String(ref) : null;
  };
  const refs = [...new Set(items.flatMap((v) => refOf(v) ?? []))];
  if (refs.length === 0) return items;
  const queries = await db
    .selectFrom('dossier_query')
    .selectAll()
    .where('environment_id', '=', access.environment.id)
    .where('def_dossier_id', '=', dossier.def_dossier_id)
    .where((eb) =>
      eb.or([
        eb(
          'id',
          'in',
          refs
            .filter((r) => /^\d{1,9}$/.test(r))
            .map(Number)
            .concat(0),
        ),
        eb('uuid', 'in', refs.filter((r) => UUID.test(r)).concat('00000000-0000-0000-0000-000000000000')),
      ]),
    )
    .execute();
  const matches = new Set<string>();
  for (const query of queries) {
    let condition: RawBuilder<boolean>;
    try {
      ({ condition } = await compileForUser(db, access, access.user, query.def_dossier_id, query.data));
    } catch {
      continue; // a condition on something the user may not see: the item stays hidden
    }
    const hit = await db
      .selectFrom('content_dossier')
      .select('id')
      .where('environment_id', '=', access.environment.id)
      .where('id', '=', Number(dossier.id))
      .where(condition)
      .executeTakeFirst();
    if (hit) matches.add(String(query.id)).add(query.uuid);
  }
  return items.filter((v) => {
    const ref = refOf(v);
    return ref === null || matches.has(ref);
  });
}
