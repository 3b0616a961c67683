import { z } from 'zod';
import { pagerSchema } from './common';
import { listOptionSchema } from './entity-answers';

// The calls of the calendar and kanban views of dossier lists (spec doc 3 section 7 "View lists").

export const KANBAN_PAGE_SIZE = 50;

/** The settings a view lacks, by the spec's warnings (doc 3 section 8). */
export const VIEW_WARNINGS = {
  calendar_date_field: 'Please contact your admin, date search field missing.',
  calendar_date_list_field: 'Please contact your admin, date list field missing.',
  kanban_search_field: 'Contact your administrator, no kanban search field set.',
  kanban_list_field: 'Contact your administrator, no kanban list field set.',
} as const;
export type ViewWarning = keyof typeof VIEW_WARNINGS;

// The rows are the list call's (Dossier, DisplayItem, contents per item): their shapes are the list
// call's own types (DossierListBody), passed through as they are.
const row = z.any();

/** A page of dossiers as the list call answers it (results.dossiers, contents, items; pager). */
export const viewListAnswerSchema = z.object({
  results: z.object({
    dossiers: z.array(row),
    contents: z.record(z.string(), z.record(z.string(), z.unknown())),
    items: z.array(row),
    aggregations: z.array(row),
  }),
  pager: pagerSchema,
});

/** GET /api/contentdossier/kanban/board: the columns (the list field's visible options). */
export const kanbanBoardAnswerSchema = z.object({
  /** the setting that is missing (the view shows its warning), else null */
  missing: z.enum(['kanban_search_field', 'kanban_list_field']).nullable(),
  columns: z.array(listOptionSchema),
  /** the user's edit item of the list field: the card moves set it (POST /contentlist/...); null: no moves */
  list_item_id: z.number().nullable(),
  multiple: z.boolean(),
  /**
   * the first page of each column (its cards and their total), by option id: what the column call
   * answers for page 0 (with the board's search), read for all columns at once
   */
  pages: z.record(z.string(), viewListAnswerSchema),
});
export type KanbanBoardAnswer = z.infer<typeof kanbanBoardAnswerSchema>;

/** GET /api/contentdossier/calendar: the dossiers of a range with each one's start and end. */
export const calendarAnswerSchema = viewListAnswerSchema.extend({
  missing: z.enum(['calendar_date_field', 'calendar_date_list_field']).nullable(),
  /** month or week (entity setting calendar_default) */
  default_view: z.enum(['month', 'week']),
  /** whether dragging may change the start, and the end (calendar_edit_start/_end and edit rights) */
  editable: z.object({ start: z.boolean(), end: z.boolean() }),
  /** with time: events are placed at their hours; without: all-day */
  with_time: z.boolean(),
  events: z.array(z.object({ id: z.number(), start: z.string(), end: z.string().nullable() })),
});
export type CalendarAnswer = z.infer<typeof calendarAnswerSchema>;

/** PATCH /api/contentdossier/{id}/calendar: the new start (and end) of a dragged or resized event. */
export const calendarMoveSchema = z.object({
  start: z.iso.datetime().or(z.iso.date()),
  end: z.iso.datetime().or(z.iso.date()).nullable().optional(),
});
