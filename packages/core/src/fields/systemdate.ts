import { z } from 'zod';
import { formatInstant, parseDateTime } from './dates';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { fail, isEmpty, noDefault, ok } from './shared';
import type { FieldType } from './types';

// created_at / modified_at of the dossier, set by the server.
export const systemdateSettingsSchema = z.object({
  dossier_data: z.enum(['created_at', 'modified_at']).default('created_at'),
});
export type SystemdateSettings = z.output<typeof systemdateSettingsSchema>;

export const SYSTEMDATE_MESSAGE = 'Enter a valid date and time (DD-MM-YYYY HH:mm)';

export const systemdateField: FieldType<typeof systemdateSettingsSchema, string> = {
  type: 'systemdate',
  settingsSchema: systemdateSettingsSchema,
  serverComputed: true,
  refersTo: null,
  source: (settings) => ({ from: 'column', column: settings.dossier_data }),
  defaultValue: noDefault,
  valueSchema: () =>
    z
      .string()
      .refine((v) => parseDateTime(v) !== null)
      .nullable(),
  normalise(raw) {
    if (isEmpty(raw)) return ok(null);
    const instant = raw instanceof Date ? raw : typeof raw === 'string' ? parseDateTime(raw.trim()) : null;
    return instant && !Number.isNaN(instant.getTime()) ? ok(instant.toISOString()) : fail(SYSTEMDATE_MESSAGE);
  },
  operators: OPERATORS_BY_FIELD_TYPE.systemdate,
  aggregations: ['min', 'max', 'count'],
  sortable: () => true,
  format(value) {
    const instant = value ? parseDateTime(value) : null;
    return instant ? formatInstant(instant) : '';
  },
  sqlCast: () => 'timestamptz',
};
