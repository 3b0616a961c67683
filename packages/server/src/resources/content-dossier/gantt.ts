import { GANTT_MESSAGES } from '@dossierbase/core';
import type { Db } from '../../db/database';
import { badRequest, HttpError } from '../../http-errors';
import { visibleItems } from '../../policy/display-item';
import type { EntityScope } from '../../policy/entity';
import { settingId } from '../content-dossier-list/view-fields';
import { EDIT_VIEWS } from './items';
import type { DossierRow } from './read-model';
import { updateDossier } from './service';

// PATCH /api/contentdossier/{id}?displayCustomView=Gantt (spec doc 3 section 7): the gantt's start and
// end of a project or task, keyed by data field id. Only the date fields the gantt settings name may
// be sent; they are written as an edit writes them (edit permission, the field's edit item visible to
// the user, the type's validation, the change log), without the checks of the rest of the form.

type Settings = Record<string, unknown>;

interface DatePair {
  start: number | null;
  end: number | null;
}

/**
 * The start and end fields the gantt may write on a dossier of this entity: its own project dates
 * when the entity has gantt settings, and the task dates of every entity whose gantt_task_link leads
 * here.
 */
async function ganttDatePairs(db: Db, scope: EntityScope): Promise<DatePair[]> {
  const pairs: DatePair[] = [];
  const own = scope.entity.settings as Settings;
  pairs.push({
    start: settingId(own, 'gantt_proj_update_start_date') ?? settingId(own, 'gantt_proj_start_date'),
    end: settingId(own, 'gantt_proj_update_end_date') ?? settingId(own, 'gantt_proj_end_date'),
  });
  const parents = await db
    .selectFrom('def_dossier as d')
    .innerJoin('def_dossier_link as l', (join) =>
      join.onRef('l.def_dossier_id', '=', 'd.id').onRef('l.environment_id', '=', 'd.environment_id'),
    )
    .select(['d.settings', 'l.id as link_id'])
    .where('d.environment_id', '=', scope.access.environment.id)
    .where('l.child_def_dossier_id', '=', scope.entity.id)
    .execute();
  for (const parent of parents) {
    const settings = parent.settings as Settings;
    if (settingId(settings, 'gantt_task_link') !== parent.link_id) continue;
    pairs.push({
      start: settingId(settings, 'gantt_task_update_start_date'),
      end: settingId(settings, 'gantt_task_update_end_date'),
    });
  }
  return pairs.filter((pair) => pair.start !== null || pair.end !== null);
}

/** Writes the gantt dates `values` (data field id -> date) of `dossier`; 400 names each wrong key. */
export async function updateGanttDates(
  db: Db,
  scope: EntityScope,
  dossier: DossierRow,
  values: Record<string, unknown>,
): Promise<void> {
  const pairs = await ganttDatePairs(db, scope);
  const allowed = new Set(pairs.flatMap((pair) => [pair.start, pair.end].filter((id) => id !== null)));
  const items = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const errors: Record<string, string> = {};
  const byItem: Record<string, unknown> = {};
  const fieldOfItem = new Map<string, string>();
  for (const [key, value] of Object.entries(values)) {
    const fieldId = Number(key);
    const item = allowed.has(fieldId) ? items.find((v) => v.dataField?.id === fieldId) : undefined;
    if (!item) {
      errors[key] = GANTT_MESSAGES.notAGanttDate;
      continue;
    }
    byItem[String(item.item.id)] = value;
    fieldOfItem.set(String(item.item.id), key);
  }
  // a start after its end is refused, with the other date as sent or as stored
  const stored = dossier.values as Record<string, unknown>;
  const current = (id: number) => (String(id) in values ? values[String(id)] : stored[String(id)]);
  for (const { start, end } of pairs) {
    if (start === null || end === null || Object.keys(errors).length) continue;
    if (!(String(start) in values) && !(String(end) in values)) continue;
    const [from, to] = [current(start), current(end)];
    if (typeof from === 'string' && typeof to === 'string' && Date.parse(from) > Date.parse(to))
      errors[String(String(start) in values ? start : end)] = GANTT_MESSAGES.startAfterEnd;
  }
  if (Object.keys(errors).length) throw badRequest(errors);
  try {
    await updateDossier(db, scope, dossier, {
      values: byItem,
      ignore_existing: true,
      onlyItems: [...fieldOfItem.keys()].map(Number),
    });
  } catch (error) {
    // the edit's errors are keyed by display item: the caller sent data field ids
    if (error instanceof HttpError && error.statusCode === 400) {
      const body = error.body as { errors?: Record<string, string> };
      throw badRequest(
        Object.fromEntries(
          Object.entries(body.errors ?? {}).map(([key, message]) => [fieldOfItem.get(key) ?? key, message]),
        ),
      );
    }
    throw error;
  }
}
