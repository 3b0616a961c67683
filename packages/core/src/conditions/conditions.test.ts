import { describe, expect, it } from 'vitest';
import {
  type Condition,
  conditionFieldIds,
  conditionSchema,
  conditionsSchema,
  evaluateConditions,
  parseConditions,
  ruleFieldMatches,
} from './conditions';

const conditions: Condition[] = conditionsSchema.parse([
  {
    // show 20 and 21 only when status (10) is 1 or 2
    rules: [{ type: 'or', fields: [{ field: 10, field_method: 'equals', values: [1, 2] }] }],
    actions: [{ type: 'show_fields', values: [20, 21] }],
  },
  {
    // require 30 when status is 1 and priority (11) is not "low"
    rules: [
      {
        type: 'and',
        fields: [
          { field: 10, field_method: 'equals', values: ['1'] },
          { field: 11, field_method: 'notequals', values: ['low'] },
        ],
      },
    ],
    actions: [{ type: 'require_fields', values: [30] }],
  },
]);

describe('condition schema', () => {
  it('fills defaults and refuses unknown methods and actions', () => {
    expect(conditionSchema.parse({ rules: [{ fields: [{ field: 1 }] }] })).toEqual({
      rules: [{ type: 'and', fields: [{ field: 1, field_method: 'equals', values: [] }] }],
      actions: [],
    });
    expect(
      conditionSchema.safeParse({ rules: [{ fields: [{ field: 1, field_method: 'contains' }] }] }).success,
    ).toBe(false);
    expect(conditionSchema.safeParse({ actions: [{ type: 'hide_fields', values: [1] }] }).success).toBe(
      false,
    );
  });
});

describe('evaluateConditions', () => {
  it('hides show_fields items while the rules do not match', () => {
    expect(evaluateConditions(conditions, { 10: 3 }).hidden).toEqual(new Set(['20', '21']));
    expect(evaluateConditions(conditions, {}).hidden).toEqual(new Set(['20', '21']));
    expect(evaluateConditions(conditions, { 10: 2 }).hidden).toEqual(new Set());
  });

  it('requires require_fields items when all rules of an and-rule match', () => {
    expect(evaluateConditions(conditions, { 10: 1, 11: 'high' }).required).toEqual(new Set(['30']));
    expect(evaluateConditions(conditions, { 10: 1, 11: 'low' }).required).toEqual(new Set());
    expect(evaluateConditions(conditions, { 10: 1 }).required).toEqual(new Set(['30'])); // empty is not "low"
    expect(evaluateConditions(conditions, { 10: 2, 11: 'high' }).required).toEqual(new Set());
  });

  it('reads Maps and records alike, ids as numbers or strings, values as ids, objects or lists', () => {
    const values = new Map<number | string, unknown>([[10, { id: 2, label: 'Closed' }]]);
    expect(evaluateConditions(conditions, values).hidden.size).toBe(0);
    expect(evaluateConditions(conditions, new Map([['10', [5, 1]]])).hidden.size).toBe(0);
    expect(evaluateConditions(conditions, { '10': [5, 6] }).hidden.size).toBe(2);
  });

  it('treats an empty rule value as "field is empty"', () => {
    const rule = { field: 1, field_method: 'equals' as const, values: [''] };
    expect(ruleFieldMatches(rule, {})).toBe(true);
    expect(ruleFieldMatches(rule, { 1: [] })).toBe(true);
    expect(ruleFieldMatches(rule, { 1: 'x' })).toBe(false);
    expect(ruleFieldMatches({ ...rule, field_method: 'notequals' }, { 1: 'x' })).toBe(true);
    expect(ruleFieldMatches({ field: 1, field_method: 'equals', values: [true] }, { 1: true })).toBe(true);
  });

  it('matches a condition without rules, and never reads inherited keys', () => {
    const always = conditionsSchema.parse([{ actions: [{ type: 'require_fields', values: ['a'] }] }]);
    expect(evaluateConditions(always, {}).required).toEqual(new Set(['a']));
    const proto = conditionsSchema.parse([
      {
        rules: [{ fields: [{ field: 'constructor', values: ['x'], field_method: 'notequals' }] }],
        actions: [{ type: 'require_fields', values: [1] }],
      },
    ]);
    expect(evaluateConditions(proto, {}).required).toEqual(new Set(['1']));
  });

  it('lists the items the rules listen to', () => {
    expect(conditionFieldIds(conditions)).toEqual(new Set(['10', '11']));
  });

  it('reads stored conditions, broken ones as none', () => {
    expect(parseConditions({ nonsense: true })).toEqual([]);
    expect(parseConditions(undefined)).toEqual([]);
    expect(parseConditions([{ actions: [{ type: 'show_fields', values: [1] }] }])).toHaveLength(1);
  });
});
