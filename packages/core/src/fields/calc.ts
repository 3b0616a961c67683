import { z } from 'zod';
import { type EvaluateOptions, type FormulaLookup, runFormula } from '../formula/evaluate';
import { parseFormula } from '../formula/parser';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { fail, flag, formatBoolean, formatNumber, inValues, isEmpty, noDefault, ok } from './shared';
import type { FieldType } from './types';

export type CalcValue = number | string | boolean;

export const CALC_MESSAGE = 'A calculated value must be a number, text or TRUE/FALSE';

export const calcSettingsSchema = z.object({
  // Empty is allowed while the field is being set up; anything else must parse.
  formula: z
    .string()
    .default('')
    .superRefine((formula, ctx) => {
      if (formula.trim() === '') return;
      const parsed = parseFormula(formula);
      if (!parsed.ok)
        ctx.addIssue({ code: 'custom', message: `${parsed.message} (at ${parsed.position + 1})` });
    }),
  // search view, as for amounts
  show_slider: flag(),
  max_slider: z.number().positive().default(1000),
});
export type CalcSettings = z.output<typeof calcSettingsSchema>;

export type CalcResult =
  | { ok: true; value: CalcValue | null }
  | { ok: false; message: string; position: number };

/** Recalculates a calc field. An empty formula gives null; a list is not a value either. */
export function computeCalc(
  settings: CalcSettings,
  lookup: FormulaLookup,
  options?: EvaluateOptions,
): CalcResult {
  if (settings.formula.trim() === '') return { ok: true, value: null };
  const result = runFormula(settings.formula, lookup, options);
  if (!result.ok || !Array.isArray(result.value)) return result as CalcResult;
  return { ok: true, value: null };
}

/** Stored value: the formula's last result (the server recalculates; clients cannot set it). */
export const calcField: FieldType<typeof calcSettingsSchema, CalcValue> = {
  type: 'calc',
  settingsSchema: calcSettingsSchema,
  serverComputed: true,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => z.union([z.number(), z.string(), z.boolean()]).nullable(),
  normalise(raw) {
    if (isEmpty(raw)) return ok(null);
    if (typeof raw === 'number' && Number.isFinite(raw)) return ok(raw);
    if (typeof raw === 'string' || typeof raw === 'boolean') return ok(raw);
    return fail(CALC_MESSAGE);
  },
  operators: OPERATORS_BY_FIELD_TYPE.calc,
  aggregations: ['count'],
  sortable: () => true,
  format(value, _settings, locale) {
    if (typeof value === 'number') return formatNumber(value, locale, { maximumFractionDigits: 2 });
    if (typeof value === 'boolean') return formatBoolean(value, locale);
    return value ?? '';
  },
  sqlCast: () => 'numeric',
};
