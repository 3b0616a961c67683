import type { Block, BlockPosition, blockCreateSchema, blockPatchSchema, Pager } from '@dossierbase/core';
import { type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import type { MypageBlockTable } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { entityInEnvironment } from '../../policy/entity';
import { type EnvironmentAccess, isEnvironmentAdmin } from '../../policy/environment';
import { likeContains } from '../../query/list-query';

// Dashboard blocks: who sees which, their rows and their grid positions (spec document 1 sections 3,
// 4 and 7). Their data is computed in data.ts.

export type BlockRow = Selectable<MypageBlockTable>;

export const BLOCK_MESSAGES = {
  unknownQuery: 'Unknown query',
  unknownParent: 'Choose a container block',
  unknownRole: 'Unknown role',
  unknownView: 'Choose the list or a custom view of the entity',
} as const;

/** The view whose items a dossier list block shows (settings.view_name): 'list' or a custom view. */
export function listBlockView(settings: Record<string, unknown>): string {
  const name = typeof settings.view_name === 'string' ? settings.view_name.trim() : '';
  return name || 'list';
}

/** The custom view of that name of the entity in the environment, if there is one. */
export function customViewOf(db: Db, environmentId: number, entityId: number | null, name: string) {
  return db
    .selectFrom('display_custom_view')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', entityId ?? 0)
    .where('view_name', '=', name)
    .executeTakeFirst();
}

/**
 * A block is shown to users holding one of its roles, or to everyone when it names none; admins of the
 * environment see every block (they arrange the default view).
 */
export function blockShownTo(access: EnvironmentAccess, block: Pick<BlockRow, 'roles'>): boolean {
  if (isEnvironmentAdmin(access) || block.roles.length === 0) return true;
  const roles = access.membership?.role_ids ?? [];
  return block.roles.some((role) => roles.includes(role));
}

export async function findBlock(db: Db, id: number): Promise<BlockRow> {
  const row = await db.selectFrom('mypage_block').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** The block when the user may see it; 404 otherwise (as for a block of another environment). */
export function shownBlock(access: EnvironmentAccess, row: BlockRow): BlockRow {
  if (row.environment_id !== access.environment.id || !blockShownTo(access, row)) throw notFound();
  return row;
}

export async function listBlocks(
  db: Db,
  access: EnvironmentAccess,
  query: { type?: string; search?: string; dashboard?: string; limit: number; page: number },
): Promise<{ rows: BlockRow[]; pager: Pager }> {
  let base = db.selectFrom('mypage_block').where('environment_id', '=', access.environment.id);
  if (query.type) base = base.where('type', '=', query.type);
  if (query.dashboard === 'true' || query.dashboard === '1') base = base.where('dashboard', '=', true);
  const search = query.search?.trim();
  if (search)
    base = base.where(
      sql<boolean>`exists (select 1 from jsonb_array_elements(translations) t
        where t ->> 'title' ilike ${likeContains(search)})`,
    );
  if (!isEnvironmentAdmin(access)) {
    const roles = access.membership?.role_ids ?? [];
    base = base.where(sql<boolean>`(cardinality(roles) = 0 or roles && ${sql.val(roles)}::integer[])`);
  }
  return paginate(base, (q) => q.selectAll().orderBy('rank').orderBy('id'), {
    page: query.page,
    limit: query.limit,
  });
}

type Create = z.infer<typeof blockCreateSchema>;
type Patch = z.infer<typeof blockPatchSchema>;

/** The references of a block body, each checked to be of the environment (400 naming the field). */
async function checkReferences(
  db: Db,
  access: EnvironmentAccess,
  body: Patch,
  self: number | null,
  entityId: number | null | undefined,
  type: string,
) {
  const env = access.environment.id;
  if (body.defDossier)
    await entityInEnvironment(db, access, body.defDossier).catch(() => {
      throw badRequest({ defDossier: 'Unknown entity' });
    });
  if (body.dossierQuery) {
    const query = await db
      .selectFrom('dossier_query')
      .select(['id', 'def_dossier_id'])
      .where('id', '=', body.dossierQuery)
      .where('environment_id', '=', env)
      .executeTakeFirst();
    if (!query || (entityId && query.def_dossier_id !== entityId))
      throw badRequest({ dossierQuery: BLOCK_MESSAGES.unknownQuery });
  }
  if (body.parent) {
    const parent = await db
      .selectFrom('mypage_block')
      .select(['id', 'type'])
      .where('id', '=', body.parent)
      .where('environment_id', '=', env)
      .executeTakeFirst();
    if (parent?.type !== 'block_container' || parent.id === self)
      throw badRequest({ parent: BLOCK_MESSAGES.unknownParent });
  }
  // a list block's view is of its entity
  if (type === 'dashboard' && body.settings && listBlockView(body.settings) !== 'list') {
    const view = listBlockView(body.settings);
    if (!(await customViewOf(db, env, entityId ?? null, view)))
      throw badRequest({ view_name: BLOCK_MESSAGES.unknownView });
  }
  if (body.roles?.length) {
    const known = await db
      .selectFrom('role')
      .select('id')
      .where('environment_id', '=', env)
      .where('id', 'in', body.roles)
      .execute();
    if (known.length !== new Set(body.roles).size) throw badRequest({ roles: BLOCK_MESSAGES.unknownRole });
  }
}

export async function createBlock(db: Db, access: EnvironmentAccess, body: Create): Promise<BlockRow> {
  await checkReferences(db, access, body, null, body.defDossier, body.type);
  return db
    .insertInto('mypage_block')
    .values({
      environment_id: access.environment.id,
      ...(body.uuid ? { uuid: body.uuid } : {}),
      type: body.type,
      def_dossier_id: body.defDossier ?? null,
      dossier_query_id: body.dossierQuery ?? null,
      parent_id: body.parent ?? null,
      col: body.col,
      rank: body.rank,
      dashboard: body.dashboard,
      roles: [...new Set(body.roles)],
      translations: body.translations,
      settings: body.settings,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch((error: unknown) => {
      if (error instanceof Error && /mypage_block_uuid_key/.test(error.message))
        throw badRequest({ uuid: 'This uuid is taken' });
      throw error;
    });
}

export async function updateBlock(
  db: Db,
  access: EnvironmentAccess,
  row: BlockRow,
  body: Patch,
): Promise<BlockRow> {
  const entityId = body.defDossier === undefined ? row.def_dossier_id : body.defDossier;
  // another entity: the stored view must be one of it too
  const settings = body.settings ?? (body.defDossier !== undefined ? row.settings : undefined);
  await checkReferences(db, access, { ...body, settings }, row.id, entityId, body.type ?? row.type);
  return db
    .updateTable('mypage_block')
    .set({
      ...(body.type ? { type: body.type } : {}),
      ...(body.defDossier !== undefined ? { def_dossier_id: body.defDossier } : {}),
      ...(body.dossierQuery !== undefined ? { dossier_query_id: body.dossierQuery } : {}),
      ...(body.parent !== undefined ? { parent_id: body.parent } : {}),
      ...(body.col !== undefined ? { col: body.col } : {}),
      ...(body.rank !== undefined ? { rank: body.rank } : {}),
      ...(body.dashboard !== undefined ? { dashboard: body.dashboard } : {}),
      ...(body.roles ? { roles: [...new Set(body.roles)] } : {}),
      ...(body.translations ? { translations: body.translations } : {}),
      ...(body.settings ? { settings: body.settings } : {}),
      modified_at: sql`now()`,
    })
    .where('id', '=', row.id)
    .where('environment_id', '=', row.environment_id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function presentBlocks(db: Db, rows: BlockRow[]): Promise<Block[]> {
  const ids = rows.map((r) => r.id);
  const children = ids.length
    ? await db
        .selectFrom('mypage_block')
        .select(['id', 'parent_id'])
        .where('parent_id', 'in', ids)
        .orderBy('rank')
        .orderBy('id')
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    environment: { id: row.environment_id },
    type: row.type as Block['type'],
    def_dossier: row.def_dossier_id === null ? null : { id: row.def_dossier_id },
    dossier_query: row.dossier_query_id === null ? null : { id: row.dossier_query_id },
    parent: row.parent_id === null ? null : { id: row.parent_id },
    col: row.col,
    rank: row.rank,
    dashboard: row.dashboard,
    roles: row.roles,
    translations: row.translations,
    settings: row.settings,
    children: children.filter((c) => c.parent_id === row.id).map((c) => c.id),
  }));
}

/** The positions of a view: the user's own, or the default view (userId null). */
export async function readPositions(
  db: Db,
  environmentId: number,
  userId: number | null,
): Promise<BlockPosition[]> {
  const row = await db
    .selectFrom('mypage_position')
    .select('positions')
    .where('environment_id', '=', environmentId)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .executeTakeFirst();
  return row?.positions ?? [];
}

/**
 * Saves the grid of a view. Sizes of zero or less become 5, the smallest block (spec document 1
 * section 5, "Dashboard grid"); a block of another environment is refused.
 */
export async function savePositions(
  db: Db,
  access: EnvironmentAccess,
  userId: number | null,
  blocks: { block: number | string; xPos: number; yPos: number; blockWidth: number; blockHeight: number }[],
): Promise<BlockPosition[]> {
  const rows = await db
    .selectFrom('mypage_block')
    .select(['id', 'uuid'])
    .where('environment_id', '=', access.environment.id)
    .execute();
  const positions: BlockPosition[] = [];
  for (const b of blocks) {
    const row = rows.find((r) => r.id === b.block || r.uuid === b.block);
    if (!row) throw badRequest({ blocks: `Unknown block ${String(b.block)}` });
    positions.push({
      uuid: row.uuid,
      x: b.xPos,
      y: b.yPos,
      w: b.blockWidth <= 0 ? 5 : Math.max(5, b.blockWidth),
      h: b.blockHeight <= 0 ? 5 : Math.max(5, b.blockHeight),
    });
  }
  await sql`insert into mypage_position (environment_id, user_id, positions)
    values (${access.environment.id}, ${userId}, ${JSON.stringify(positions)}::jsonb)
    on conflict (environment_id, coalesce(user_id, 0))
    do update set positions = excluded.positions, modified_at = now()`.execute(db);
  return positions;
}
