import {
  DOSSIER_MESSAGES,
  type FieldContext,
  fieldSettingsOf,
  getFieldType,
  isServerComputed,
  LINK_MESSAGES,
  type ListOptionRef,
  parseFieldSettings,
  valueRefsOf,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import { type VisibleItem, visibleListOptions } from '../../policy/display-item';
import type { EntityScope } from '../../policy/entity';
import type { EnvironmentAccess } from '../../policy/environment';
import { sanitiseStoredRichText } from '../../sanitise/rich-text';
import { compileForUser, linkRestriction } from '../dossier-query/service';
import { fileValueProblem } from '../file/service';

// Submitted values (keyed by display item id) to stored values (keyed by data-field id) and the linked
// dossier ids of link items, each checked by its field type; one error per item that is refused.

/** List options the user may choose: admins all, others not those restricted to one of their roles. */
async function listOptions(db: Db, access: EnvironmentAccess, defFieldId: number): Promise<ListOptionRef[]> {
  const rows = await visibleListOptions(db, access, [defFieldId]);
  return rows.map((row) => ({ id: row.id, label: row.translations[0]?.text }));
}

async function environmentUsers(db: Db, environmentId: number) {
  const rows = await db
    .selectFrom('environment_user as eu')
    .innerJoin('app_user as u', 'u.id', 'eu.user_id')
    .select(['u.id', 'u.username'])
    .where('eu.environment_id', '=', environmentId)
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.username }));
}

/**
 * The first of `ids` outside the saved query that restricts the link's choices (its
 * default_val_dos_query, or the query limit_output_to_mis_item names), as the user may read it.
 */
async function outsideRestriction(
  db: Db,
  scope: EntityScope,
  v: VisibleItem,
  ids: number[],
): Promise<number | undefined> {
  const query = await linkRestriction(db, scope.access.environment.id, v);
  if (!query) return undefined;
  const { condition } = await compileForUser(
    db,
    scope.access,
    scope.access.user,
    query.def_dossier_id,
    query.data,
  );
  const inside = await db
    .selectFrom('content_dossier')
    .select('id')
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', query.def_dossier_id)
    .where('id', 'in', ids)
    .where(condition)
    .execute();
  const known = new Set(inside.map((row) => Number(row.id)));
  return ids.find((id) => !known.has(id));
}

export interface Normalised {
  /** data-field id -> stored value */
  values: Record<string, unknown>;
  /** forward link id -> {item, ids} for the link items that were sent */
  links: { item: VisibleItem; ids: number[] }[];
  errors: Record<string, string>;
}

export async function normaliseValues(
  db: Db,
  scope: EntityScope,
  allowed: Map<string, VisibleItem>,
  submitted: Record<string, unknown>,
  stored: Record<string, unknown> = {},
): Promise<Normalised> {
  const out: Normalised = { values: {}, links: [], errors: {} };
  const ctxBase: FieldContext = { now: new Date(), currentUserId: scope.access.user.id };
  for (const [key, raw] of Object.entries(submitted)) {
    const v = allowed.get(key);
    if (!v) {
      out.errors[key] = DOSSIER_MESSAGES.unknownItem;
      continue;
    }
    if (v.link) {
      const result = getFieldType('link').normalise(raw, parseFieldSettings('link', { multiple: true }));
      if (!result.ok) {
        out.errors[key] = result.message;
        continue;
      }
      const ids = (result.value as number[] | null) ?? [];
      const multiple = v.link.type_of_link === 'embeddedList' || v.link.settings.multiple === true;
      if (!multiple && ids.length > 1) {
        out.errors[key] = DOSSIER_MESSAGES.singleLink;
        continue;
      }
      if (ids.length) {
        const found = await db
          .selectFrom('content_dossier')
          .select('id')
          .where('id', 'in', ids)
          .where('environment_id', '=', scope.access.environment.id)
          .where('def_dossier_id', '=', v.link.child_def_dossier_id)
          .execute();
        const known = new Set(found.map((row) => Number(row.id)));
        const missing = ids.find((id) => !known.has(id));
        if (missing !== undefined) {
          out.errors[key] = LINK_MESSAGES.unknown(missing);
          continue;
        }
        if ((await outsideRestriction(db, scope, v, ids)) !== undefined) {
          out.errors[key] = LINK_MESSAGES.notAChoice;
          continue;
        }
      }
      out.links.push({ item: v, ids });
      continue;
    }
    if (!v.dataField || !v.field) {
      out.errors[key] = DOSSIER_MESSAGES.unknownItem;
      continue;
    }
    const type = v.field.type;
    if (isServerComputed(type)) continue;
    const ctx: FieldContext = { ...ctxBase };
    if (valueRefsOf(type) === 'options') {
      // An option restricted from the user's roles that is already selected stays allowed.
      const current = stored[String(v.dataField.id)];
      const kept = (Array.isArray(current) ? current : [current]).filter((id) => typeof id === 'number');
      ctx.options = [...(await listOptions(db, scope.access, v.field.id)), ...kept.map((id) => ({ id }))];
    }
    if (valueRefsOf(type) === 'users') ctx.users = await environmentUsers(db, scope.access.environment.id);
    const settings = fieldSettingsOf(v);
    const result = getFieldType(type).normalise(raw, settings, ctx);
    if (!result.ok) {
      out.errors[key] = result.message;
      continue;
    }
    let value = result.value;
    if (type === 'file' && value !== null) {
      const problem = await fileValueProblem(db, scope.access.environment.id, value, settings);
      if (problem) {
        out.errors[key] = problem;
        continue;
      }
    }
    if (type === 'textarea' && typeof value === 'string') {
      value = await sanitiseStoredRichText(db, scope.access.environment.id, value);
      if (value === '') value = null;
    }
    out.values[String(v.dataField.id)] = value;
  }
  return out;
}
