import { idParamSchema } from '@dossierbase/core';
import type { Db } from '../../db/database';
import { type LinkRow, type VisibleItem, visibleItems } from '../../policy/display-item';
import { authorize } from '../../policy/dossier';
import { canUseHourRegistration, type EnvironmentAccess } from '../../policy/environment';

// The fields an embedded-list view draws besides the list columns (spec doc 3 section 3, the
// entity's view settings): the list call with `view=timeline|gantt|hourregistration` adds an item for
// each of them that the user may see, so `contents` carries their values under that item's id.

type Settings = Record<string, unknown>;

/** The list call's `view` values that draw fields of their own (the spec's client sends 'Gantt'). */
export const FIELD_VIEWS = ['timeline', 'gantt', 'hourregistration'] as const;
export type FieldView = (typeof FIELD_VIEWS)[number];

export const TIMELINE_SETTINGS = ['timeline_field', 'timeline_desc_field'] as const;
export const GANTT_PROJECT_SETTINGS = [
  'gantt_proj_start_date',
  'gantt_proj_end_date',
  'gantt_proj_progress',
  'gantt_proj_tags',
  'gantt_proj_update_start_date',
  'gantt_proj_update_end_date',
] as const;
export const GANTT_TASK_SETTINGS = [
  'gantt_task_update_start_date',
  'gantt_task_update_end_date',
  'gantt_task_progress',
  'gantt_task_tags',
  'gantt_task_resource',
] as const;

/** The items a field may be read through: any view in which the user may see it. */
const READ_VIEWS = ['list', 'show', 'edit', 'show/edit', 'search', 'advanced-search'];

/** `view` of the list call, or null (any other value is a plain list). */
export function fieldViewOf(value: unknown): FieldView | null {
  const one = Array.isArray(value) ? value[0] : value;
  if (typeof one !== 'string') return null;
  const name = one.toLowerCase();
  return (FIELD_VIEWS as readonly string[]).includes(name) ? (name as FieldView) : null;
}

/** A data field id stored in an entity setting (a number or a numeric text), or null. */
export function settingId(settings: Settings, key: string): number | null {
  const parsed = idParamSchema.safeParse(settings[key] === null ? undefined : String(settings[key]));
  return parsed.success ? parsed.data : null;
}

/**
 * Whether a gantt list reads tasks: the embedded link is the parent entity's gantt_task_link. Then
 * the task settings of the parent entity apply, otherwise the entity's own project settings.
 */
export async function ganttSettingsOf(
  db: Db,
  access: EnvironmentAccess,
  entitySettings: Settings,
  embedded: { link: LinkRow } | null,
): Promise<{ keys: readonly string[]; settings: Settings }> {
  if (embedded) {
    const parent = await db
      .selectFrom('def_dossier')
      .select('settings')
      .where('id', '=', embedded.link.def_dossier_id)
      .where('environment_id', '=', access.environment.id)
      .executeTakeFirst();
    const parentSettings = (parent?.settings ?? {}) as Settings;
    if (settingId(parentSettings, 'gantt_task_link') === embedded.link.id)
      return { keys: GANTT_TASK_SETTINGS, settings: parentSettings };
  }
  return { keys: GANTT_PROJECT_SETTINGS, settings: entitySettings };
}

/**
 * The items to add to a list answer for `view`: one visible item per configured data field that the
 * list items do not show already. The hour registration view needs its module (403 without).
 */
export async function viewFieldItems(
  db: Db,
  access: EnvironmentAccess,
  entity: { id: number; settings: Settings },
  embedded: { link: LinkRow } | null,
  view: FieldView,
  listItems: VisibleItem[],
): Promise<VisibleItem[]> {
  if (view === 'hourregistration') {
    authorize(canUseHourRegistration(access));
    return [];
  }
  const { keys, settings } =
    view === 'timeline'
      ? { keys: TIMELINE_SETTINGS, settings: entity.settings }
      : await ganttSettingsOf(db, access, entity.settings, embedded);
  const wanted = new Set(keys.flatMap((key) => settingId(settings, key) ?? []));
  for (const v of listItems) if (v.dataField) wanted.delete(v.dataField.id);
  if (wanted.size === 0) return [];
  const added: VisibleItem[] = [];
  for (const v of await visibleItems(db, access, entity.id, READ_VIEWS)) {
    if (!v.dataField || !wanted.has(v.dataField.id)) continue;
    wanted.delete(v.dataField.id);
    added.push(v);
  }
  return added;
}

/**
 * The gantt_task_link of a project list (view=gantt, not itself the tasks of a project) with its
 * child entity, when the entity names one of its own links; null otherwise.
 */
export async function ganttTaskLinkOf(
  db: Db,
  access: EnvironmentAccess,
  entity: { id: number; settings: Settings },
  embedded: { link: LinkRow } | null,
): Promise<{ task_link_id: number; task_entity_id: number } | null> {
  const { keys } = await ganttSettingsOf(db, access, entity.settings, embedded);
  const linkId = settingId(entity.settings, 'gantt_task_link');
  if (keys === GANTT_TASK_SETTINGS || linkId === null) return null;
  const link = await db
    .selectFrom('def_dossier_link')
    .select(['id', 'child_def_dossier_id'])
    .where('id', '=', linkId)
    .where('environment_id', '=', access.environment.id)
    .where('def_dossier_id', '=', entity.id)
    .executeTakeFirst();
  return link ? { task_link_id: link.id, task_entity_id: link.child_def_dossier_id } : null;
}
