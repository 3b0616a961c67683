import {
  DISPLAY_VIEWS,
  DOSSIER_DATA_KEYS,
  type displayItemCreateSchema,
  type displayItemPatchSchema,
  type displayItemTranslationSchema,
  ENTITY_MESSAGES,
  type Pager,
  validateFieldSettings,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest, notFound } from '../../http-errors';
import type { ConfigListScope } from '../../policy/configuration';
import type { RoleRule } from '../../policy/field-visibility';
import { isRoleRestricted } from '../../policy/summary';
import { sanitiseTranslationTexts as sanitiseTranslations } from '../../sanitise/information-text';
import type { Entity as SummaryEntity } from '../content-dossier/summary';
import { type SummaryEffect, withSummaryUpdate } from '../content-dossier/summary-refresh';
import { positiveId } from '../content-dossier-list/service';
import type { DataFieldRow } from '../def-dossier-def-field/present';
import { bodyEntity, isUniqueViolation, NOT_OF_ENTITY, UUID_TAKEN } from '../def-dossier-def-field/shared';
import type { DisplayItemRow } from './present';

export type DisplayItemCreate = z.infer<typeof displayItemCreateSchema>;
export type DisplayItemPatch = z.infer<typeof displayItemPatchSchema>;
export type DisplayItemTranslationInput = z.infer<typeof displayItemTranslationSchema>;
export interface DisplayItemAuto {
  defDossierDefField: number;
  displayPosition?: number | null;
  view: string;
  translations: DisplayItemTranslationInput[];
}

export const DISPLAY_ITEM_MESSAGES = {
  unknownView: 'Unknown view',
  fieldAndLink: 'Choose either a data field or a link field, not both',
  unknownRole: 'Unknown role',
  unknownBlock: 'Choose a block of this environment',
  unknownBlockLink: 'Choose a link of this entity',
} as const;

/** Only these views place items in a display position; items of other views have none. */
export const POSITION_VIEWS = new Set<string>(['edit', 'show', 'show/edit']);
const BUILT_IN_VIEWS = new Set<string>(DISPLAY_VIEWS);
const DOSSIER_DATA = new Set<string>(DOSSIER_DATA_KEYS);

export async function listDisplayItems(
  db: Db,
  scope: ConfigListScope,
  query: { uuid?: string; view?: string; displayPosition?: number; limit: number; page: number },
): Promise<{ rows: DisplayItemRow[]; pager: Pager }> {
  let base = db
    .selectFrom('display_item as i')
    .leftJoin('display_position as p', 'p.id', 'i.display_position_id')
    .where('i.environment_id', '=', scope.environmentId);
  if (scope.defDossierId !== undefined) base = base.where('i.def_dossier_id', '=', scope.defDossierId);
  if (query.uuid) base = base.where('i.uuid', '=', query.uuid);
  if (query.view) base = base.where('i.view', '=', query.view);
  if (query.displayPosition !== undefined)
    base = base.where('i.display_position_id', '=', query.displayPosition);
  return paginate(
    base,
    (q) =>
      q
        .selectAll('i')
        .orderBy(sql`p.rank asc nulls first`)
        .orderBy('i.rank')
        .orderBy('i.col')
        .orderBy('i.id'),
    { page: query.page, limit: query.limit },
  );
}

export async function findDisplayItem(db: Db, id: number): Promise<DisplayItemRow> {
  const row = await db.selectFrom('display_item').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

interface ItemState {
  view: string;
  displayPosition: number | null;
  defDossierDefField: number | null;
  defDossierLink: number | null;
  roles: number[];
  settings: Record<string, unknown>;
  /** the settings are sent in this call (and checked against the field's type) */
  settingsSent: boolean;
}

/**
 * The rules of spec document 3 section 5 on the item as it will be stored; answers the position
 * the item gets (null for views without positions). Every broken rule is reported per field.
 */
async function checkItem(
  db: Db,
  entity: { id: number; environment_id: number },
  state: ItemState,
  existing?: DisplayItemRow,
): Promise<number | null> {
  const errors: Record<string, string> = {};
  if (!BUILT_IN_VIEWS.has(state.view)) {
    const custom = await db
      .selectFrom('display_custom_view')
      .select('id')
      .where('def_dossier_id', '=', entity.id)
      .where('view_name', '=', state.view)
      .executeTakeFirst();
    if (!custom) errors.view = DISPLAY_ITEM_MESSAGES.unknownView;
  }
  const special =
    Boolean(state.settings.block) ||
    (typeof state.settings.dossier_data === 'string' && DOSSIER_DATA.has(state.settings.dossier_data));
  if (state.defDossierDefField !== null && state.defDossierLink !== null) {
    errors.defDossierLink = DISPLAY_ITEM_MESSAGES.fieldAndLink;
  } else if (state.defDossierDefField === null && state.defDossierLink === null && !special) {
    errors.defDossierDefField = ENTITY_MESSAGES.chooseFieldOrLink;
  }
  const ofEntity = async (
    table: 'def_dossier_def_field' | 'def_dossier_link' | 'display_position',
    id: number,
  ) =>
    Boolean(
      await db
        .selectFrom(table)
        .select('id')
        .where('id', '=', id)
        .where('def_dossier_id', '=', entity.id)
        .where('environment_id', '=', entity.environment_id)
        .executeTakeFirst(),
    );
  if (
    state.defDossierDefField !== null &&
    !(await ofEntity('def_dossier_def_field', state.defDossierDefField))
  ) {
    errors.defDossierDefField = NOT_OF_ENTITY;
  }
  if (state.defDossierLink !== null && !(await ofEntity('def_dossier_link', state.defDossierLink))) {
    errors.defDossierLink = NOT_OF_ENTITY;
  }
  // a block item reads its block about the dossier (through its link): both of this environment, so
  // that no item can show another tenant's block (checked whenever the settings are written)
  const settingsWritten = state.settingsSent || !existing;
  if (settingsWritten && state.settings.block) {
    const id = positiveId(String(state.settings.block));
    const block =
      id !== null
        ? await db
            .selectFrom('mypage_block')
            .select('id')
            .where('id', '=', id)
            .where('environment_id', '=', entity.environment_id)
            .executeTakeFirst()
        : undefined;
    if (!block) errors.block = DISPLAY_ITEM_MESSAGES.unknownBlock;
  }
  if (settingsWritten && state.settings.block_link) {
    const id = positiveId(String(state.settings.block_link));
    const link =
      id !== null
        ? await db
            .selectFrom('def_dossier_link')
            .select('id')
            .where('id', '=', id)
            .where('environment_id', '=', entity.environment_id)
            .where((eb) =>
              eb.or([eb('def_dossier_id', '=', entity.id), eb('child_def_dossier_id', '=', entity.id)]),
            )
            .executeTakeFirst()
        : undefined;
    if (!link) errors.block_link = DISPLAY_ITEM_MESSAGES.unknownBlockLink;
  }
  if (state.settingsSent) {
    // the item's settings override its field's: each key the type knows must parse
    const type =
      state.defDossierLink !== null ? 'link' : await dataFieldType(db, entity, state.defDossierDefField);
    const checked = type ? validateFieldSettings(type, state.settings, 'override') : null;
    if (checked && !checked.ok) Object.assign(errors, checked.errors);
  }
  const position = POSITION_VIEWS.has(state.view) ? state.displayPosition : null;
  if (existing && position !== existing.display_position_id) {
    errors.displayPosition = ENTITY_MESSAGES.locationFixed;
  } else if (position !== null && !(await ofEntity('display_position', position))) {
    errors.displayPosition = NOT_OF_ENTITY;
  }
  if (state.roles.length) {
    const known = await db
      .selectFrom('role')
      .select('id')
      .where('environment_id', '=', entity.environment_id)
      .where('id', 'in', state.roles)
      .execute();
    if (known.length !== new Set(state.roles).size) errors.roles = DISPLAY_ITEM_MESSAGES.unknownRole;
  }
  if (Object.keys(errors).length) throw badRequest(errors);
  return position;
}

/** The base field type behind a data field, or null. */
async function dataFieldType(db: Db, entity: { id: number }, dataFieldId: number | null) {
  if (dataFieldId === null) return null;
  const row = await db
    .selectFrom('def_dossier_def_field as d')
    .innerJoin('def_field as f', 'f.id', 'd.def_field_id')
    .select('f.type')
    .where('d.id', '=', dataFieldId)
    .where('d.def_dossier_id', '=', entity.id)
    .executeTakeFirst();
  return row?.type ?? null;
}

/** What of an item decides what summaries show: its place in the summary view and who may see it. */
const SUMMARY_SHAPE = [
  'view',
  'def_dossier_def_field_id',
  'rank',
  'col',
  'roles',
  'permissions_type',
] as const;
type SummaryShape = Pick<DisplayItemRow, (typeof SUMMARY_SHAPE)[number]>;

const inSummary = (item: SummaryShape | null): item is SummaryShape =>
  item?.view === 'summary' && item.def_dossier_def_field_id !== null;

/**
 * What a change of an item (from `before`, to `after`; null: none) means for the summaries of its
 * entity: `items` null when its summary items stay as they are; otherwise they are rewritten, and
 * `leaving` names a restricted item whose value leaves them. `restricts`: the data field of an item
 * left restricted to roles (which the summaries of an entity without summary items may not show).
 */
function summaryChange(
  before: (SummaryShape & { id: number; field?: RoleRule }) | null,
  after: SummaryShape | null,
): SummaryEffect {
  const restricts = after && isRoleRestricted(after) ? after.def_dossier_def_field_id : null;
  if (!inSummary(before) && !inSummary(after)) return { items: null, restricts };
  if (
    before &&
    after &&
    SUMMARY_SHAPE.every((key) => JSON.stringify(before[key]) === JSON.stringify(after[key]))
  )
    return { items: null, restricts };
  const stays = inSummary(after) && after.def_dossier_def_field_id === before?.def_dossier_def_field_id;
  const leaving = before && inSummary(before) && isRoleRestricted(before) && !stays;
  return { items: leaving ? { leaving: before.id } : {}, restricts };
}

/**
 * Runs a write of display items; when it changes what the summaries of the entity show, with the
 * rewrite of their stored summaries (content-dossier/summary-refresh.ts).
 */
function writeItems<T>(db: Db, entity: SummaryEntity, change: SummaryEffect, write: (db: Db) => Promise<T>) {
  return withSummaryUpdate(db, entity, change, write);
}

/** The item with the role rule of its data field: an item of a field hidden from a role is restricted too. */
async function withFieldRule(db: Db, row: DisplayItemRow) {
  if (row.def_dossier_def_field_id === null) return row;
  const field = await db
    .selectFrom('def_dossier_def_field')
    .select(['roles', 'permissions_type'])
    .where('environment_id', '=', row.environment_id)
    .where('id', '=', row.def_dossier_def_field_id)
    .executeTakeFirst();
  return { ...row, field };
}

const itemEntity = (row: DisplayItemRow) => ({ id: row.def_dossier_id, environment_id: row.environment_id });

function translateUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error, 'display_item_uuid_key')) throw badRequest({ uuid: UUID_TAKEN });
  throw error;
}

export async function createDisplayItem(db: Db, input: DisplayItemCreate): Promise<DisplayItemRow> {
  const entity = await bodyEntity(db, input.environment, input.defDossier);
  const roles = [...new Set(input.roles)];
  const position = await checkItem(db, entity, {
    view: input.view,
    displayPosition: input.displayPosition ?? null,
    defDossierDefField: input.defDossierDefField ?? null,
    defDossierLink: input.defDossierLink ?? null,
    roles,
    settings: input.settings,
    settingsSent: true,
  });
  const summaries = summaryChange(null, {
    view: input.view,
    def_dossier_def_field_id: input.defDossierDefField ?? null,
    rank: input.rank,
    col: input.col,
    roles,
    permissions_type: input.permissions_type,
  });
  try {
    return await writeItems(db, entity, summaries, (db) =>
      db
        .insertInto('display_item')
        .values({
          environment_id: entity.environment_id,
          def_dossier_id: entity.id,
          ...(input.uuid ? { uuid: input.uuid } : {}),
          display_position_id: position,
          def_dossier_def_field_id: input.defDossierDefField ?? null,
          def_dossier_link_id: input.defDossierLink ?? null,
          view: input.view,
          col: input.col,
          rank: input.rank,
          colspan: input.colspan,
          rowspan: 0,
          roles,
          permissions_type: input.permissions_type,
          translations: sanitiseTranslations(input.translations),
          settings: input.settings,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  } catch (error) {
    translateUniqueViolation(error);
  }
}

export async function patchDisplayItem(
  db: Db,
  row: DisplayItemRow,
  input: DisplayItemPatch,
): Promise<DisplayItemRow> {
  const roles = input.roles === undefined ? undefined : [...new Set(input.roles)];
  const view = input.view ?? row.view;
  const displayPosition =
    input.displayPosition === undefined ? row.display_position_id : input.displayPosition;
  const defDossierDefField =
    input.defDossierDefField === undefined ? row.def_dossier_def_field_id : input.defDossierDefField;
  const defDossierLink = input.defDossierLink === undefined ? row.def_dossier_link_id : input.defDossierLink;
  await checkItem(
    db,
    { id: row.def_dossier_id, environment_id: row.environment_id },
    {
      view,
      displayPosition,
      defDossierDefField,
      defDossierLink,
      roles: roles ?? [],
      settings: input.settings ?? row.settings,
      settingsSent: input.settings !== undefined,
    },
    row,
  );
  const summaries = summaryChange(await withFieldRule(db, row), {
    view,
    def_dossier_def_field_id: defDossierDefField,
    rank: input.rank ?? row.rank,
    col: input.col ?? row.col,
    roles: roles ?? row.roles,
    permissions_type: input.permissions_type ?? row.permissions_type,
  });
  return writeItems(db, itemEntity(row), summaries, (db) =>
    db
      .updateTable('display_item')
      .set({
        def_dossier_def_field_id: defDossierDefField,
        def_dossier_link_id: defDossierLink,
        view,
        col: input.col,
        rank: input.rank,
        colspan: input.colspan,
        rowspan: 0,
        roles,
        permissions_type: input.permissions_type,
        translations: input.translations === undefined ? undefined : sanitiseTranslations(input.translations),
        settings: input.settings,
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export async function deleteDisplayItem(db: Db, row: DisplayItemRow): Promise<void> {
  await writeItems(db, itemEntity(row), summaryChange(await withFieldRule(db, row), null), (db) =>
    db.deleteFrom('display_item').where('id', '=', row.id).execute(),
  );
}

async function nextRank(db: Db, defDossierId: number, view: string, position: number | null) {
  let query = db
    .selectFrom('display_item')
    .select(sql<number>`coalesce(max(rank), 0)`.as('max'))
    .where('def_dossier_id', '=', defDossierId)
    .where('view', '=', view);
  query =
    position === null
      ? query.where('display_position_id', 'is', null)
      : query.where('display_position_id', '=', position);
  const { max } = await query.executeTakeFirstOrThrow();
  return Number(max) + 1;
}

/**
 * After a new data field: an item in the given view and position (the entity's first main content
 * position when none is given) and one in the list view, each on a row of its own (col 1, colspan 4).
 */
export async function autoCreateDisplayItems(
  db: Db,
  field: DataFieldRow,
  input: DisplayItemAuto,
): Promise<DisplayItemRow[]> {
  const entity = { id: field.def_dossier_id, environment_id: field.environment_id };
  let displayPosition = input.displayPosition ?? null;
  if (displayPosition === null && POSITION_VIEWS.has(input.view)) {
    const first = await db
      .selectFrom('display_position')
      .select('id')
      .where('def_dossier_id', '=', entity.id)
      .where('type', '=', 'main_content')
      .orderBy('rank')
      .orderBy('id')
      .executeTakeFirst();
    displayPosition = first?.id ?? null;
  }
  const state = {
    defDossierDefField: field.id,
    defDossierLink: null,
    roles: [],
    settings: {},
    settingsSent: false,
  };
  const position = await checkItem(db, entity, { ...state, view: input.view, displayPosition });
  const translations = sanitiseTranslations(input.translations);
  // an item placed in the summary view rewrites the entity's stored summaries
  const transaction = <T>(write: (trx: Db) => Promise<T>) =>
    writeItems(db, entity, { items: input.view === 'summary' ? {} : null, restricts: null }, (db) =>
      db.transaction().execute(write),
    );
  return transaction(async (trx) => {
    const wanted: { view: string; position: number | null }[] = [{ view: input.view, position }];
    const inList = await trx
      .selectFrom('display_item')
      .select('id')
      .where('def_dossier_def_field_id', '=', field.id)
      .where('view', '=', 'list')
      .executeTakeFirst();
    if (input.view !== 'list' && !inList) wanted.push({ view: 'list', position: null });
    const created: DisplayItemRow[] = [];
    for (const { view, position: at } of wanted) {
      created.push(
        await trx
          .insertInto('display_item')
          .values({
            environment_id: entity.environment_id,
            def_dossier_id: entity.id,
            display_position_id: at,
            def_dossier_def_field_id: field.id,
            view,
            col: 1,
            rank: await nextRank(trx, entity.id, view, at),
            colspan: 4,
            rowspan: 0,
            roles: [],
            translations,
            settings: {},
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    return created;
  });
}
