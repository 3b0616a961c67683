import type { DefDossierDefField, DisplayPosition } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { movePosition } from './grid';
import {
  fieldsFor,
  readAddressLookup,
  readViewSettings,
  writeAddressLookup,
  writeViewSettings,
} from './view-settings';

const field = (id: number, type: string) =>
  ({ id, name: `f${id}`, def_field: { id, uuid: '', name: '', type, settings: {} } }) as DefDossierDefField;

describe('entity view settings', () => {
  it('offers data fields by the type of their base field', () => {
    const fields = [
      field(1, 'date'),
      field(2, 'list'),
      field(3, 'amount'),
      field(4, 'user'),
      field(5, 'text'),
    ];
    expect(fieldsFor('date', fields).map((f) => f.id)).toEqual([1]);
    expect(fieldsFor('list', fields).map((f) => f.id)).toEqual([2]);
    expect(fieldsFor('amount', fields).map((f) => f.id)).toEqual([3]);
    expect(fieldsFor('user', fields).map((f) => f.id)).toEqual([4]);
    expect(fieldsFor('any', fields)).toHaveLength(5);
  });

  it('stores ids as numbers and names and the calendar default as text', () => {
    const form = readViewSettings({
      calendar_default: 'month',
      kanban_list_field: 7,
      kanban_custom_view: 'board',
    });
    expect(form).toMatchObject({ calendar_default: 'month', kanban_list_field: '7', timeline_field: null });
    const stored = writeViewSettings({ ...form, gantt_task_link: '3' });
    expect(stored).toMatchObject({
      calendar_default: 'month',
      kanban_list_field: 7,
      kanban_custom_view: 'board',
      gantt_task_link: 3,
      timeline_field: null,
    });
  });

  it('round-trips the address lookup settings', () => {
    const form = readAddressLookup({ address_lookup_settings: { address_lookup: true, street_ddi: 12 } });
    expect(form.address_lookup).toBe(true);
    expect(form.items.street_ddi).toBe('12');
    expect(writeAddressLookup(form)).toMatchObject({ address_lookup: true, street_ddi: 12, city_ddi: null });
  });
});

describe('moving display positions', () => {
  const position = (id: number, type: DisplayPosition['type'], rank: number) =>
    ({ id, type, rank, hide: false, translations: [] }) as unknown as DisplayPosition;
  const positions = [
    position(1, 'main_content', 0),
    position(2, 'tab', 1),
    position(3, 'tab', 2),
    position(4, 'tab', 3),
  ];

  it('swaps a tab with its neighbour of the same type and renumbers the changed ones', () => {
    expect(movePosition(positions, positions[2], -1)).toEqual([
      { id: 3, rank: 0 },
      { id: 4, rank: 2 },
    ]);
  });

  it('does nothing past the ends', () => {
    expect(movePosition(positions, positions[1], -1)).toEqual([]);
    expect(movePosition(positions, positions[3], 1)).toEqual([]);
    expect(movePosition(positions, positions[0], -1)).toEqual([]);
  });
});
