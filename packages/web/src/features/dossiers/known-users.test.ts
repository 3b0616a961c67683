import type { DisplayItem } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { knownUsers, mergeUsers, storedUserIds } from './known-users';

const item = (id: number, type: string) =>
  ({ id, def_dossier_def_field: { def_field: { type } } }) as unknown as DisplayItem;

describe('known users', () => {
  it('collects the ids held by user fields only, single and multiple, once each', () => {
    const items = [item(1, 'user'), item(2, 'amount'), item(3, 'user')];
    const contents = [
      { 1: 7, 2: 99, 3: [8, 7] },
      { 1: null, 3: [9, 'x', -1, 2.5] },
    ];
    expect(storedUserIds(items, contents).sort()).toEqual([7, 8, 9]);
    expect(storedUserIds([], contents)).toEqual([]);
  });

  it('names users the page knows after the members', () => {
    const known = knownUsers({ id: 1, username: 'ann' }, null, { id: 2, username: 'bob' });
    expect(mergeUsers([{ id: 1, name: 'Ann A' }], known)).toEqual([
      { id: 1, name: 'Ann A' },
      { id: 2, name: 'bob' },
    ]);
  });
});
