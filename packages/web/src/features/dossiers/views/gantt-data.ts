import {
  type DisplayItem,
  type Dossier,
  type DossierListBody,
  GANTT_LABEL_LENGTH,
  GANTT_PROGRESS_CAP,
  type ListOption,
} from '@dossierbase/core';
import { optionLabel } from '../../../fields/helpers';
import { dateOf, itemOfField, numberOf, settingId, type ViewSettings, valueOfField } from './view-data';

// The gantt's data (spec doc 3 sections 3, 4, 5 and 9): projects are the embedded list's dossiers,
// tasks the dossiers linked to a project through gantt_task_link; each has a start, an end, a
// progress (drawn up to 100, red above), tags and, for tasks, a resource. The bars end at the end of
// their last day, as a date field's end is inclusive.

export interface GanttFields {
  start: number | null;
  end: number | null;
  /** where a move writes the dates (gantt_*_update_*_date, else the fields read) */
  updateStart: number | null;
  updateEnd: number | null;
  progress: number | null;
  tags: number | null;
  resource: number | null;
}

export interface GanttConfig {
  taskLink: number | null;
  project: GanttFields;
  task: GanttFields;
}

export function ganttConfig(settings: ViewSettings | undefined): GanttConfig {
  const id = (key: string) => settingId(settings, key);
  const taskStart = id('gantt_task_update_start_date');
  const taskEnd = id('gantt_task_update_end_date');
  return {
    taskLink: id('gantt_task_link'),
    project: {
      start: id('gantt_proj_start_date'),
      end: id('gantt_proj_end_date'),
      updateStart: id('gantt_proj_update_start_date') ?? id('gantt_proj_start_date'),
      updateEnd: id('gantt_proj_update_end_date') ?? id('gantt_proj_end_date'),
      progress: id('gantt_proj_progress'),
      tags: id('gantt_proj_tags'),
      resource: null,
    },
    task: {
      start: taskStart,
      end: taskEnd,
      updateStart: taskStart,
      updateEnd: taskEnd,
      progress: id('gantt_task_progress'),
      tags: id('gantt_task_tags'),
      resource: id('gantt_task_resource'),
    },
  };
}

export interface GanttTag {
  id: number;
  name: string;
  colour: string | null;
}

/** A project or task (spec: Gantt item) with the dates it is drawn with. */
export interface GanttItem {
  kind: 'project' | 'task';
  dossier: Dossier;
  /** the project of a task */
  projectId: number | null;
  /** first day */
  start: Date;
  /** last day (inclusive) */
  end: Date;
  progress: number;
  tags: GanttTag[];
  /** user ids of the resource field */
  resource: number[];
}

/** What the chart draws of a progress: at most the cap; above it the bar is red. */
export const drawnProgress = (progress: number) => Math.min(Math.max(progress, 0), GANTT_PROGRESS_CAP);
export const isOverProgress = (progress: number) => progress > GANTT_PROGRESS_CAP;

/** The task list's label: cut at 15 characters. */
export function ganttLabel(text: string): string {
  return text.length > GANTT_LABEL_LENGTH ? `${text.slice(0, GANTT_LABEL_LENGTH)}…` : text;
}

/** The list options of an item as tags, by the ids stored. */
function tagsOf(value: unknown, options: ListOption[] | undefined, locale: string): GanttTag[] {
  const ids = Array.isArray(value) ? value : value == null ? [] : [value];
  return ids.flatMap((raw) => {
    const id = Number(raw);
    const option = options?.find((o) => o.id === id);
    return option ? [{ id, name: optionLabel(option, locale), colour: option.color }] : [];
  });
}

function usersOf(value: unknown): number[] {
  const ids = Array.isArray(value) ? value : value == null ? [] : [value];
  return ids.map(Number).filter((id) => Number.isInteger(id) && id > 0);
}

export interface GanttItems {
  items: GanttItem[];
  /** dossiers lacking a start or an end: not drawn */
  undated: Dossier[];
}

/** The dossiers of a list answer as gantt items of one kind. */
export function ganttItems(
  body: DossierListBody | undefined,
  kind: GanttItem['kind'],
  fields: GanttFields,
  context: {
    projectId: number | null;
    optionsOf: (item: DisplayItem) => ListOption[] | undefined;
    locale: string;
  },
): GanttItems {
  const result: GanttItems = { items: [], undated: [] };
  if (!body) return result;
  const tagItem = itemOfField(body, fields.tags);
  for (const dossier of body.results.dossiers) {
    const value = (field: number | null) => valueOfField(body, dossier.id, field);
    const start = dateOf(value(fields.start));
    const end = dateOf(value(fields.end));
    if (!start || !end) {
      result.undated.push(dossier);
      continue;
    }
    result.items.push({
      kind,
      dossier,
      projectId: context.projectId,
      start,
      // a bar never ends before it starts
      end: new Date(Math.max(end.getTime(), start.getTime())),
      progress: numberOf(value(fields.progress)) ?? 0,
      tags: tagItem ? tagsOf(value(fields.tags), context.optionsOf(tagItem), context.locale) : [],
      resource: usersOf(value(fields.resource)),
    });
  }
  return result;
}

/** The chart's end of a bar: the start of the day after its last day. */
export const chartEnd = (lastDay: Date) =>
  new Date(lastDay.getFullYear(), lastDay.getMonth(), lastDay.getDate() + 1);
/** The last day of a bar the chart ends at `end` (exclusive). */
export const lastDayOf = (end: Date) => startOfDay(new Date(end.getTime() - 1));

/** `date` `days` calendar days on (a day is not always 24 hours: summer time). */
export const addDays = (date: Date, days: number) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate() + days, date.getHours(), date.getMinutes());

/**
 * The dates a finished move or resize of a bar gives it. The chart names the dates it changes
 * (`task.start` for the left edge, `task.end` for the right, both for a move) and, for a drag, the
 * days it was moved by (`diff`): those dates are then the bar's dates before the drag. Without a
 * `diff` the dates are the new ones, and a bar given only a start keeps its length. Null when no date
 * changes (the progress, which this view does not let the chart change).
 */
export function movedDates(
  task: { start?: Date; end?: Date },
  diff: number | undefined,
  current: { start?: Date; end?: Date } | undefined,
): { start: Date; end: Date } | null {
  if (!task.start && !task.end) return null;
  let start: Date | undefined;
  let end: Date | undefined;
  if (diff) {
    start = task.start ? addDays(task.start, diff) : current?.start;
    end = task.end ? addDays(task.end, diff) : current?.end;
  } else {
    start = task.start ?? current?.start;
    end =
      task.end ??
      (start && current?.start && current.end
        ? new Date(start.getTime() + (current.end.getTime() - current.start.getTime()))
        : undefined);
  }
  return start && end ? { start, end } : null;
}

export function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/** A day as a date field stores it: 'YYYY-MM-DD', or an instant when the field keeps a time. */
export function storedDay(day: Date, withTime: boolean): string {
  if (withTime) return startOfDay(day).toISOString();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/**
 * The project dates a task's new dates need: its start moved back or its end moved on to cover the
 * task, or null when the task lies within the project.
 */
export function projectDatesFor(
  task: { start: Date; end: Date },
  project: { start: Date; end: Date },
): { start: Date; end: Date } | null {
  const start = Math.min(task.start.getTime(), project.start.getTime());
  const end = Math.max(task.end.getTime(), project.end.getTime());
  return start === project.start.getTime() && end === project.end.getTime()
    ? null
    : { start: new Date(start), end: new Date(end) };
}
