import { describe, expect, it } from 'vitest';
import { treeField } from './tree';

const single = treeField.settingsSchema.parse({});

describe('tree field', () => {
  it('holds option ids like a list', () => {
    expect(single).toEqual({ multiple: false });
    expect(treeField.normalise(4, single, { options: [{ id: 4, label: 'Leaf' }] })).toEqual({
      ok: true,
      value: 4,
    });
    expect(treeField.normalise(5, single, { options: [{ id: 4 }] })).toEqual({
      ok: false,
      message: 'Unknown list option 5',
    });
    expect(treeField.format(4, single, undefined, { options: [{ id: 4, label: 'Leaf' }] })).toBe('Leaf');
    expect(treeField.operators).toEqual(['equals', 'not_equals', 'in']);
  });
});
