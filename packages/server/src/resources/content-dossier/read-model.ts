import {
  DISPLAY_VIEWS,
  dossierColumnValue,
  fieldSettingsOf,
  fieldTypeOf,
  getFieldType,
  isFieldTypeName,
  type PermissionAction,
} from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { ContentDossierTable, DefDossierTable, UserRow } from '../../db/schema';
import { openableEnvironmentIds } from '../../db/user-environments';
import { badRequest, notFound } from '../../http-errors';
import { type VisibleItem, visibleItems } from '../../policy/display-item';
import { authorize, canShowDossiers, holds, holdsCredential } from '../../policy/dossier';
import { type EntityScope, openEntityScope } from '../../policy/entity';
import type { EnvironmentAccess } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { visibleSummary } from '../../query/visible-summary';
import { DETAIL_VIEWS } from './items';
import { linkedIds } from './links';

// Reading dossiers: one dossier with the user's scope on its entity, its content as a detail page shows
// it, and the per-dossier answers of the tab and credential checks.

export type DossierRow = Selectable<ContentDossierTable>;
export type EntityRow = Selectable<DefDossierTable>;

/** Loads a dossier and the user's scope on its entity; 404 unknown, 403 when `action` is missing. */
export async function openDossier(db: Db, user: UserRow, id: number, action: PermissionAction) {
  const dossier = await db
    .selectFrom('content_dossier')
    .selectAll()
    .where('id', '=', id)
    .where('environment_id', 'in', openableEnvironmentIds(db, user))
    .executeTakeFirst();
  if (!dossier) throw notFound();
  const scope = await openEntityScope(db, user, dossier.def_dossier_id, dossier.environment_id);
  authorize(holds(scope, action));
  return { dossier, ...scope };
}

export const UNKNOWN_VIEW = 'Unknown view';

/**
 * The views a dossier is read in besides its page: a standard view, or a custom view of its entity
 * (the side panel of an embedded list whose link names one in passing_sidebar); 400 for another.
 */
async function readableView(db: Db, scope: EntityScope, view: string): Promise<string> {
  if ((DISPLAY_VIEWS as readonly string[]).includes(view)) return view;
  const custom = await db
    .selectFrom('display_custom_view')
    .select('view_name')
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', scope.entity.id)
    .where('view_name', '=', view)
    .executeTakeFirst();
  if (!custom) throw badRequest({ view: UNKNOWN_VIEW });
  return custom.view_name;
}

/**
 * The display items of the detail page the user may see, of one position when it is given; with
 * `view`, those of that view instead of the page's.
 */
export async function detailItems(db: Db, scope: EntityScope, displayPosition?: number, view?: string) {
  const views = view === undefined ? DETAIL_VIEWS : [await readableView(db, scope, view)];
  const items = await visibleItems(db, scope.access, scope.entity.id, views);
  if (displayPosition === undefined) return items;
  const position = await db
    .selectFrom('display_position')
    .select('id')
    .where('id', '=', displayPosition)
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', scope.entity.id)
    .executeTakeFirst();
  if (!position) throw notFound();
  return items.filter((v) => v.item.display_position_id === displayPosition);
}

/** Where a field item's value lives: the type's source with the item's settings (as the list reads it). */
function valueSourceOf(v: VisibleItem) {
  const type = fieldTypeOf(v);
  return type && isFieldTypeName(type) ? getFieldType(type).source(fieldSettingsOf(v)) : null;
}

/**
 * Display item id -> value; links as the linked dossiers (the user has show on the child entity), with
 * the summaries the user may see.
 */
export async function dossierContent(
  db: Db,
  access: EnvironmentAccess,
  dossier: DossierRow,
  items: VisibleItem[],
) {
  const values = dossier.values as Record<string, unknown>;
  const summaryKeys = await readerSummaryKeys(db, access);
  const content: Record<string, unknown> = {};
  for (const v of items) {
    const source = v.dataField ? valueSourceOf(v) : null;
    // systemdate / systemuser fields read the dossier's own dates and users
    if (source?.from === 'column') content[String(v.item.id)] = dossierColumnValue(dossier, source.column);
    else if (v.dataField) content[String(v.item.id)] = values[String(v.dataField.id)] ?? null;
    else if (v.link) {
      const ids = await linkedIds(db, dossier.environment_id, Number(dossier.id), v.link);
      const rows = ids.length
        ? await db
            .selectFrom('content_dossier')
            .select(['id', 'summary', 'summaries', 'def_dossier_id', 'archived'])
            .where('id', 'in', ids)
            .where('environment_id', '=', dossier.environment_id)
            .execute()
        : [];
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      content[String(v.item.id)] = ids.flatMap((id) => {
        const row = byId.get(id);
        if (!row) return [];
        const summary = visibleSummary(row, summaryKeys.get(row.def_dossier_id));
        return [{ id, summary, def_dossier_id: row.def_dossier_id, archived: row.archived }];
      });
    }
  }
  return content;
}

/** tabs_allowed per dossier id: a dossier of the entity in the environment the user may show. */
export async function tabsAllowed(db: Db, scope: EntityScope, ids: number[]) {
  const rows = ids.length
    ? await db
        .selectFrom('content_dossier')
        .select('id')
        .where('id', 'in', ids)
        .where('environment_id', '=', scope.access.environment.id)
        .where('def_dossier_id', '=', scope.entity.id)
        .execute()
    : [];
  const known = new Set(rows.map((row) => Number(row.id)));
  const show = canShowDossiers(scope);
  return ids.map((id) => ({ id, tabs_allowed: show && known.has(id) }));
}

/** Whether the user holds `credential` (a permission action) on one dossier of the entity. */
export async function credentialAllowed(db: Db, scope: EntityScope, credential: string, dossierId?: number) {
  if (!holdsCredential(scope, credential)) return false;
  if (dossierId === undefined) return true;
  const row = await db
    .selectFrom('content_dossier')
    .select('archived')
    .where('id', '=', dossierId)
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', scope.entity.id)
    .executeTakeFirst();
  if (!row) return false;
  return holdsCredential(scope, credential, row);
}
