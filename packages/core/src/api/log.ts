import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './common';
import { dossierIdParamSchema, idParamSchema } from './ids';

// The change log of dossiers (GET /api/log): every write to a dossier records who changed what, in its
// transaction. Admins read their environment's log with filters; a member with the `dossierlog`
// permission reads the log of one dossier.

export const LOG_TYPES = ['create', 'change', 'archive', 'delete', 'shown', 'secureshare'] as const;
export type LogType = (typeof LOG_TYPES)[number];

export const LOG_MESSAGES = {
  invalidDate: 'Enter a valid date',
  fromAfterTo: 'The start date is after the end date',
} as const;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, LOG_MESSAGES.invalidDate)
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), LOG_MESSAGES.invalidDate);

export const logQuerySchema = listQuerySchema
  .omit({ search: true })
  .extend({
    environment: idParamSchema,
    dossier: dossierIdParamSchema.optional(),
    entity: idParamSchema.optional(),
    user: idParamSchema.optional(),
    /** one type, or several (type=change&type=archive) */
    type: z
      .union([z.enum(LOG_TYPES), z.array(z.enum(LOG_TYPES)).max(LOG_TYPES.length)])
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .optional(),
    /** first and last day, inclusive (UTC) */
    from: day.optional(),
    to: day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: LOG_MESSAGES.fromAfterTo, path: ['from'] });
export type LogQuery = z.output<typeof logQuerySchema>;

export const logChangeSchema = z.object({
  /** the display item's name when the change was made */
  name: z.string(),
  old_value: z.unknown(),
  new_value: z.unknown(),
  /** the values as the field type displays them to the reader (a list option by its label, a link by
   * its summary); absent for entries whose item is unknown now */
  old_text: z.string().optional(),
  new_text: z.string().optional(),
});

export const logEntrySchema = z.object({
  id: z.number(),
  type: z.enum(LOG_TYPES),
  created_at: z.string(),
  user: z.object({ id: z.number().nullable(), username: z.string() }).nullable(),
  dossier: z.object({ id: z.number(), summary: z.string(), def_dossier_id: z.number() }),
  changes: z.array(logChangeSchema),
});
export type LogEntry = z.infer<typeof logEntrySchema>;
export const logPageSchema = pagedSchema(logEntrySchema).extend({
  /** one dossier's log: the users who wrote its entries, for the filter by user */
  users: z.array(z.object({ id: z.number(), username: z.string() })).optional(),
});
export type LogPage = z.infer<typeof logPageSchema>;
