import { describe, expect, it } from 'vitest';
import type { ItemRows } from '../fields/item';
import { conditionsSchema } from './conditions';
import { itemRules, missingRequired } from './required';

function field(id: number, type: string, obligatory = false): ItemRows {
  return {
    item: { id, settings: {} },
    dataField: { obligatory, settings: {} },
    field: { type, settings: {} },
    link: null,
  };
}
const link = (id: number, obligatory = false): ItemRows => ({
  item: { id, settings: {} },
  dataField: null,
  field: null,
  link: { obligatory, settings: {} },
});
const dossierData = (id: number): ItemRows => ({
  item: { id, settings: { dossier_data: 'created_at' } },
  dataField: null,
  field: null,
  link: null,
});

// Status (1) "closed" (option 9) shows and requires the reason (2); the note (3) is obligatory.
const conditions = conditionsSchema.parse([
  {
    rules: [{ fields: [{ field: 1, values: [9] }] }],
    actions: [
      { type: 'show_fields', values: [2] },
      { type: 'require_fields', values: [2] },
    ],
  },
]);
const items = [field(1, 'list'), field(2, 'text'), field(3, 'textarea', true), link(4, true)];

describe('required items', () => {
  it('requires obligatory fields and links, and items a matching condition requires', () => {
    expect(itemRules(items, conditions, {})).toEqual({
      hidden: new Set(['2']),
      required: new Set(['3', '4']),
    });
    expect(itemRules(items, conditions, { 1: 9 })).toEqual({
      hidden: new Set(),
      required: new Set(['2', '3', '4']),
    });
  });

  it('reports the required, shown, empty items', () => {
    expect(missingRequired(items, conditions, {})).toEqual(['3', '4']);
    expect(missingRequired(items, conditions, { 1: 9, 3: '<p>x</p>', 4: [12] })).toEqual(['2']);
    expect(missingRequired(items, conditions, { 1: [9], 2: '  ', 3: 'x', 4: [] })).toEqual(['2', '4']);
    expect(
      missingRequired(
        items,
        conditions,
        new Map<number, unknown>([
          [1, 9],
          [2, 'why'],
          [3, 'x'],
          [4, [{ id: 1 }]],
        ]),
      ),
    ).toEqual([]);
  });

  it('never asks for values the server computes, nor for dossier data', () => {
    const computed = [
      field(5, 'autoIncrement', true),
      field(6, 'calc', true),
      field(7, 'systemdate', true),
      dossierData(8),
    ];
    const requireAll = conditionsSchema.parse([
      { actions: [{ type: 'require_fields', values: [5, 6, 7, 8] }] },
    ]);
    expect(missingRequired(computed, requireAll, {})).toEqual([]);
  });

  it('reads the conditions over values of items it does not check', () => {
    // the status lives on another tab: only the reason is checked
    expect(missingRequired([field(2, 'text')], conditions, { 1: 9 })).toEqual(['2']);
    expect(missingRequired([field(2, 'text')], conditions, { 1: 8 })).toEqual([]);
  });
});
