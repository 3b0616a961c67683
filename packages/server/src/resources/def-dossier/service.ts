import {
  type Condition,
  conditionsSchema,
  type defDossierCreateSchema,
  type defDossierPatchSchema,
  type Pager,
  type QuerySettings,
  querySettingsSchema,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest, HttpError } from '../../http-errors';
import { dropProjections } from '../../query/projection';
import { escapeLike } from '../environment/service';
import { type DefDossierRow, entityName } from './present';

export const UNKNOWN_ROLE = 'Unknown role';
export const DUPLICATE_UUID = 'An item with this uuid exists';

/** A unique constraint refused the row (PostgreSQL and PGlite both report SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Every id must be a role of the environment; 400 under `key` otherwise. */
export async function checkRoleIds(db: Db, environmentId: number, roleIds: readonly number[], key: string) {
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return;
  const found = await db
    .selectFrom('role')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where('id', 'in', unique)
    .execute();
  if (found.length !== unique.length) {
    const known = new Set(found.map((r) => r.id));
    throw badRequest({ [key]: `${UNKNOWN_ROLE} ${unique.find((id) => !known.has(id))}` });
  }
}

export async function listDefDossiers(
  db: Db,
  environmentId: number,
  { limit, page, search, type }: { limit: number; page: number; search?: string; type?: string },
): Promise<{ rows: DefDossierRow[]; pager: Pager }> {
  let query = db.selectFrom('def_dossier').where('environment_id', '=', environmentId);
  if (type) query = query.where('type', '=', type as DefDossierRow['type']);
  const term = search?.trim();
  if (term) {
    const like = `%${escapeLike(term)}%`;
    query = query.where(
      sql<boolean>`exists (select 1 from jsonb_array_elements(def_dossier.translations) as t(value)
        where t.value->>'name' ilike ${like} or t.value->>'name_singular' ilike ${like}
          or t.value->>'name_plural' ilike ${like})`,
    );
  }
  return paginate(query, (q) => q.selectAll().orderBy('rank').orderBy('id'), { page: page, limit: limit });
}

export function findDefDossier(db: Db, id: number) {
  return db.selectFrom('def_dossier').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Validates settings.conditions (when sent) with the core schema and checks that every display item
 * they name belongs to the entity; other settings pass as they are.
 */
async function normaliseSettings(
  db: Db,
  entityId: number | null,
  settings: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const withQueries = Object.hasOwn(settings, 'query_settings')
    ? { ...settings, query_settings: await normaliseQuerySettings(db, entityId, settings.query_settings) }
    : settings;
  return normaliseConditions(db, entityId, withQueries);
}

/** settings.query_settings: its default and menu queries must be saved queries of this entity. */
async function normaliseQuerySettings(
  db: Db,
  entityId: number | null,
  value: unknown,
): Promise<QuerySettings> {
  const parsed = querySettingsSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest({
      [['settings', 'query_settings', ...issue.path.map(String)].join('.')]: issue.message,
    });
  }
  const { default_query, menu_queries } = parsed.data;
  if (default_query == null && menu_queries.length === 0) return parsed.data;
  const queries =
    entityId === null
      ? []
      : await db
          .selectFrom('dossier_query')
          .select(['id', 'uuid'])
          .where('def_dossier_id', '=', entityId)
          .execute();
  if (default_query != null && !queries.some((q) => q.id === default_query))
    throw badRequest({ 'settings.query_settings.default_query': 'Unknown query' });
  if (menu_queries.some((m) => !queries.some((q) => q.uuid === m.queryUuid)))
    throw badRequest({ 'settings.query_settings.menu_queries': 'Unknown query' });
  return parsed.data;
}

async function normaliseConditions(
  db: Db,
  entityId: number | null,
  settings: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!Object.hasOwn(settings, 'conditions')) return settings;
  if (settings.conditions === null) return { ...settings, conditions: [] };
  const parsed = conditionsSchema.safeParse(settings.conditions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = ['settings', 'conditions', ...issue.path.map(String)].join('.');
    throw badRequest({ [key]: issue.message });
  }
  const conditions: Condition[] = parsed.data;
  const referenced = conditions.flatMap((c) => [
    ...c.rules.flatMap((rule) => rule.fields.map((f) => f.field)),
    ...c.actions.flatMap((action) => action.values),
  ]);
  if (referenced.length) {
    const items =
      entityId === null
        ? []
        : await db
            .selectFrom('display_item')
            .select(['id', 'uuid'])
            .where('def_dossier_id', '=', entityId)
            .execute();
    const known = new Set(items.flatMap((item) => [String(item.id), item.uuid]));
    const unknown = referenced.find((ref) => !known.has(String(ref)));
    if (unknown !== undefined) {
      throw badRequest({ 'settings.conditions': `Unknown display item ${unknown}` });
    }
  }
  return { ...settings, conditions };
}

type CreateInput = z.output<typeof defDossierCreateSchema>;
type PatchInput = z.output<typeof defDossierPatchSchema>;

/** A new entity, with the main-content position its dossier page needs. */
export async function createDefDossier(db: Db, input: CreateInput): Promise<DefDossierRow> {
  await checkRoleIds(db, input.environment, input.visibility_roles, 'visibility_roles');
  const settings = await normaliseSettings(db, null, input.settings);
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('def_dossier')
        .values({
          environment_id: input.environment,
          ...(input.uuid ? { uuid: input.uuid } : {}),
          type: input.type,
          rank: input.rank,
          visibility_roles: input.visibility_roles,
          archivable: input.archivable,
          translations: input.translations,
          settings,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('display_position')
        .values({
          environment_id: row.environment_id,
          def_dossier_id: row.id,
          type: 'main_content',
          rank: 0,
          translations: [{ culture: 'en_GB', name: 'General' }],
        })
        .execute();
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest({ uuid: DUPLICATE_UUID });
    throw error;
  }
}

/** Settings are merged key by key, so an editor may send only the keys it owns (e.g. conditions). */
export async function updateDefDossier(
  db: Db,
  row: DefDossierRow,
  input: PatchInput,
): Promise<DefDossierRow> {
  if (input.visibility_roles)
    await checkRoleIds(db, row.environment_id, input.visibility_roles, 'visibility_roles');
  const settings = input.settings
    ? { ...row.settings, ...(await normaliseSettings(db, row.id, input.settings)) }
    : undefined;
  return db
    .updateTable('def_dossier')
    .set({
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.rank !== undefined ? { rank: input.rank } : {}),
      ...(input.visibility_roles !== undefined ? { visibility_roles: input.visibility_roles } : {}),
      ...(input.archivable !== undefined ? { archivable: input.archivable } : {}),
      ...(input.translations !== undefined ? { translations: input.translations } : {}),
      ...(settings ? { settings } : {}),
      modified_at: new Date(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface RankChange {
  id: number;
  rank: number;
}

/**
 * The one environment all the rows belong to. `authorise` runs for every environment found before
 * anything else is said: 403 for a member who may not change it; the rows of an environment the user
 * may not see (404) count as unknown ids, so another tenant's ids get the answer unknown ones get.
 * Then 400 when an id is unknown or the rows span environments.
 */
export async function environmentOfRanks(
  db: Db,
  table: 'def_dossier' | 'def_field_list',
  ranks: readonly RankChange[],
  unknownMessage: string,
  authorise: (environmentId: number) => Promise<unknown>,
): Promise<number> {
  const ids = [...new Set(ranks.map((r) => r.id))];
  const found = await db.selectFrom(table).select(['id', 'environment_id']).where('id', 'in', ids).execute();
  const hidden = new Set<number>();
  for (const environmentId of new Set(found.map((r) => r.environment_id))) {
    try {
      await authorise(environmentId);
    } catch (error) {
      if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
      hidden.add(environmentId);
    }
  }
  const rows = found.filter((r) => !hidden.has(r.environment_id));
  if (rows.length !== ids.length) {
    const known = new Set(rows.map((r) => r.id));
    throw badRequest({ ranks: `${unknownMessage} ${ids.find((id) => !known.has(id))}` });
  }
  const environments = [...new Set(rows.map((r) => r.environment_id))];
  if (environments.length !== 1) throw badRequest({ ranks: 'All items must belong to one environment' });
  return environments[0];
}

export async function rankDefDossiers(db: Db, ranks: readonly RankChange[]): Promise<DefDossierRow[]> {
  return db.transaction().execute(async (trx) => {
    for (const { id, rank } of ranks) {
      await trx
        .updateTable('def_dossier')
        .set({ rank, modified_at: new Date() })
        .where('id', '=', id)
        .execute();
    }
    return trx
      .selectFrom('def_dossier')
      .selectAll()
      .where(
        'id',
        'in',
        ranks.map((r) => r.id),
      )
      .orderBy('rank')
      .orderBy('id')
      .execute();
  });
}

/**
 * Refused while another entity links to this one; otherwise its fields, links and layout go with it,
 * and so do the backlinks its own links made on other entities (they do not count as linking to it).
 */
export async function deleteDefDossier(db: Db, row: DefDossierRow): Promise<void> {
  const links = await db
    .selectFrom('def_dossier_link')
    .innerJoin('def_dossier', 'def_dossier.id', 'def_dossier_link.def_dossier_id')
    .leftJoin('def_dossier_link as partner', 'partner.id', 'def_dossier_link.back_link_id')
    .select(['def_dossier.id', 'def_dossier.translations', 'def_dossier_link.name'])
    .where('def_dossier_link.child_def_dossier_id', '=', row.id)
    .where('def_dossier_link.def_dossier_id', '<>', row.id)
    // a backlink (the younger of the two tied links, as isBacklink) of one of this entity's links
    .where((eb) =>
      eb.or([
        eb('def_dossier_link.back_link_id', 'is', null),
        eb('partner.def_dossier_id', '<>', row.id),
        eb('def_dossier_link.back_link_id', '>', eb.ref('def_dossier_link.id')),
      ]),
    )
    .orderBy('def_dossier.rank')
    .orderBy('def_dossier.id')
    .orderBy('def_dossier_link.name')
    .execute();
  if (links.length) {
    const names = links.map((link) => `${entityName(link)}.${link.name}`).join(', ');
    throw badRequest({ id: `Linked from ${names}` });
  }
  await db.deleteFrom('def_dossier').where('id', '=', row.id).execute();
  await dropProjections(db, row.id);
}
