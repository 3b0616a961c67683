import { describe, expect, it } from 'vitest';
import { settingsShape, settingsWithDefaults } from './settings-fields';

describe('registry settings forms', () => {
  it('derives controls from the settings schema', () => {
    const amount = Object.fromEntries(settingsShape('amount').map((s) => [s.key, s.control.kind]));
    expect(amount).toMatchObject({
      valueType: 'enum',
      decimals: 'number',
      currency: 'enum',
      show_slider: 'boolean',
    });
    const text = Object.fromEntries(settingsShape('text').map((s) => [s.key, s.control.kind]));
    expect(text).toMatchObject({ regex: 'string', size: 'number', validators: 'enum-list' });
  });

  it('fills defaults under stored settings', () => {
    expect(settingsWithDefaults('text', { size: 20 })).toMatchObject({ size: 20, regex: '' });
  });
});
