import { z } from 'zod';

// The gantt and timeline views of an embedded list (spec doc 3 sections 3, 4, 5, 7 and 9).

export const GANTT_MESSAGES = {
  notAGanttDate: 'This field is not a gantt date',
  startAfterEnd: 'The start may not be after the end',
} as const;

/** Subtasks read per project when it is expanded. */
export const GANTT_SUBTASK_LIMIT = 100;
/** Progress is drawn up to this; above it the bar shows red. */
export const GANTT_PROGRESS_CAP = 100;
/** Labels of the task list are cut at this many characters. */
export const GANTT_LABEL_LENGTH = 15;
export const GANTT_ZOOMS = ['Day', 'Week', 'Month'] as const;
export type GanttZoom = (typeof GANTT_ZOOMS)[number];
export const DEFAULT_GANTT_ZOOM: GanttZoom = 'Month';

/** A data field id as a key of the gantt PATCH's values. */
const fieldKey = z.string().regex(/^\d{1,10}$/, 'Unknown field');

/** PATCH /api/contentdossier/{id}?displayCustomView=Gantt: start and end keyed by data field id. */
export const ganttPatchSchema = z.object({
  values: z
    .record(fieldKey, z.unknown(), {
      error: (issue) => (issue.code === 'invalid_key' ? 'Unknown field' : undefined),
    })
    .refine((values) => Object.keys(values).length > 0 && Object.keys(values).length <= 4, {
      message: 'Send the start or the end',
    }),
});
export type GanttPatch = z.infer<typeof ganttPatchSchema>;

export const ganttPatchQuerySchema = z.object({ displayCustomView: z.literal('Gantt') });
