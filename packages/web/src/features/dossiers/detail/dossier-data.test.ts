import type { DisplayItem, Dossier } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { detailValues } from './dossier-data';

const dossier: Dossier = {
  id: 41,
  summary: 'Ann Example',
  def_dossier_id: 3,
  environment_id: 1,
  archived: false,
  created_at: '2024-05-01T08:00:00.000Z',
  modified_at: '2024-06-02T09:30:00.000Z',
  created_by: { id: 7, username: 'admin' },
  modified_by: null,
};

const item = (id: number, settings: Record<string, unknown>, field = false): DisplayItem =>
  ({
    id,
    settings,
    def_dossier_def_field: field ? ({ id: 1 } as never) : null,
    def_dossier_link: null,
  }) as DisplayItem;

describe('detailValues', () => {
  it('fills dossier-data items from the dossier as the list receives them, next to the content', () => {
    const items = [
      item(1, { dossier_data: 'summary' }),
      item(2, { dossier_data: 'dossier_id' }),
      item(3, { dossier_data: 'created_at' }),
      item(4, { dossier_data: 'modified_at' }),
      item(5, { dossier_data: 'created_by' }),
      item(6, { dossier_data: 'modified_by' }),
      item(7, { block: 12 }),
      item(8, {}, true),
    ];
    expect(detailValues({ dossier, items, content: { 8: 'stored value' } })).toEqual({
      1: 'Ann Example',
      2: 41,
      3: '2024-05-01T08:00:00.000Z',
      4: '2024-06-02T09:30:00.000Z',
      5: 7,
      6: null,
      8: 'stored value',
    });
  });

  it('ignores a dossier_data setting on a field item and unknown keys', () => {
    const items = [item(1, { dossier_data: 'summary' }, true), item(2, { dossier_data: 'password' })];
    expect(detailValues({ dossier, items, content: { 1: 'field value' } })).toEqual({ 1: 'field value' });
  });
});
