import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { noDefault, ok, optionalIdSetting } from './shared';
import type { FieldType } from './types';

export const customActionButtonSettingsSchema = z.object({
  action: z.enum(['kedocx', 'popup_tab_or_view', 'fire_event', 'report']).default('kedocx'),
  kedocx: z.string().max(100).default(''), // template uuid
  kedocx_format: z.enum(['pdf', 'docx', 'html']).default('pdf'),
  report: optionalIdSetting,
  report_format: z.enum(['pdf', 'docx', 'html', 'xlsx']).default('pdf'),
  event_id: optionalIdSetting,
  popup_view: z.string().max(100).default(''),
  popup_custom_view: z.string().max(100).default(''),
});
export type CustomActionButtonSettings = z.output<typeof customActionButtonSettingsSchema>;

/** A button holds no value; whatever a client sends for it is dropped. */
export const customActionButtonField: FieldType<typeof customActionButtonSettingsSchema, never> = {
  type: 'customActionButton',
  settingsSchema: customActionButtonSettingsSchema,
  serverComputed: true,
  refersTo: null,
  source: () => ({ from: 'none' }),
  defaultValue: noDefault,
  valueSchema: () => z.null(),
  normalise: () => ok(null),
  operators: OPERATORS_BY_FIELD_TYPE.customActionButton,
  aggregations: [],
  sortable: () => false,
  format: () => '',
  sqlCast: () => 'none',
};
