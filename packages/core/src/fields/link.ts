import { z } from 'zod';
import { dossierIdSchema } from '../api/ids';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { flag, idValueSchema, labelIds, noDefault, normaliseIds, optionalIdSetting } from './shared';
import type { FieldType } from './types';

export const LINK_VIEWS = ['calendar', 'gantt', 'kanban', 'list', 'timeline', 'hourregistration'] as const;

export const LINK_MESSAGES = {
  invalid: 'Choose a valid dossier',
  tooMany: 'Only one dossier may be linked',
  unknown: (id: number) => `Unknown dossier ${id}`,
  /** outside the saved query that restricts the link's choices */
  notAChoice: 'This dossier is not among the choices of this field',
} as const;

export const linkSettingsSchema = z.object({
  clickable: flag(true),
  hide_add: flag(),
  show_multi_add: flag(),
  only_allow_add: flag(),
  show_email: flag(),
  enable_small_view: flag(),
  show_brp: flag(), // only offered when the brp module is on
  show_embedded: flag(),
  embedded_single_view: flag(),
  show_id: flag(),
  data_refresh: flag(),
  row_input: flag(),
  passing_sidebar: z.string().max(100).default(''),
  limit_embedded_link: optionalIdSetting,
  default_val_dos_query: optionalIdSetting,
  views: z.array(z.enum(LINK_VIEWS)).default([]),
  custom_view: z.string().max(100).default(''),
  block: optionalIdSetting,
  sort: z
    .array(
      z.object({ dddfId: z.union([z.number().int(), z.string().max(100)]), sort: z.enum(['ASC', 'DESC']) }),
    )
    .max(20)
    .default([]),
  multiple: flag(),
  limit_output_to_mis_item: z.string().max(100).default(''),
});
export type LinkSettings = z.output<typeof linkSettingsSchema>;

/** Value: the linked dossier id(s). Links live in content_link, not in the values column. */
export const linkField: FieldType<typeof linkSettingsSchema, number | number[]> = {
  type: 'link',
  settingsSchema: linkSettingsSchema,
  serverComputed: false,
  refersTo: 'dossiers',
  source: () => ({ from: 'links' }),
  defaultValue: noDefault,
  valueSchema: (settings) => idValueSchema(settings.multiple, dossierIdSchema),
  normalise: (raw, settings) =>
    normaliseIds(raw, settings.multiple, LINK_MESSAGES, undefined, Number.MAX_SAFE_INTEGER),
  operators: OPERATORS_BY_FIELD_TYPE.link, // links use link conditions instead
  aggregations: ['unique', 'count'],
  sortable: (settings) => !settings.multiple, // spec: multiple links are not sortable
  format: (value, _settings, _locale, ctx) => labelIds(value, ctx?.options),
  sqlCast: () => 'none',
};
