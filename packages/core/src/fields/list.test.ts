import { describe, expect, it } from 'vitest';
import { listField } from './list';

const single = listField.settingsSchema.parse({});
const multi = listField.settingsSchema.parse({ multiple: true, default_list_option: 3 });
const options = [
  { id: 1, label: 'Open' },
  { id: 2, label: 'Closed' },
  { id: 3, label: 'Pending' },
];

describe('list field', () => {
  it('has the spec defaults; an empty default option is null', () => {
    expect(single).toEqual({
      multiple: false,
      fast_switch: false,
      checkbox_view: false,
      checkbox_view_horizontal: false,
      default_list_option: null,
    });
    expect(listField.settingsSchema.parse({ default_list_option: '' }).default_list_option).toBeNull();
  });

  it('stores option ids, one or many', () => {
    expect(listField.normalise('2', single, { options })).toEqual({ ok: true, value: 2 });
    expect(listField.normalise([{ id: 1 }, 3], multi, { options })).toEqual({ ok: true, value: [1, 3] });
    expect(listField.normalise([], multi)).toEqual({ ok: true, value: null });
  });

  it('refuses unknown, invalid or too many options', () => {
    expect(listField.normalise(9, single, { options })).toEqual({
      ok: false,
      message: 'Unknown list option 9',
    });
    expect(listField.normalise([1, 2], single)).toEqual({ ok: false, message: 'Choose only one option' });
    expect(listField.normalise('open', single)).toEqual({ ok: false, message: 'Choose a valid option' });
    expect(listField.normalise(-1, single)).toEqual({ ok: false, message: 'Choose a valid option' });
  });

  it('formats labels and offers list operators and unique counts', () => {
    expect(listField.format([1, 3], multi, 'nl-NL', { options })).toBe('Open, Pending');
    expect(listField.format(4, single, 'nl-NL', { options })).toBe('#4');
    expect(listField.operators).toEqual(['equals', 'not_equals', 'in']);
    expect(listField.aggregations).toContain('unique');
    expect(listField.valueSchema(multi).safeParse([1, 2]).success).toBe(true);
    expect(listField.valueSchema(single).safeParse([1, 2]).success).toBe(false);
  });
});
