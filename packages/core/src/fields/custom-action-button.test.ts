import { describe, expect, it } from 'vitest';
import { customActionButtonField } from './custom-action-button';

const s = customActionButtonField.settingsSchema.parse({});

describe('customActionButton field', () => {
  it('has the spec defaults (report format pdf)', () => {
    expect(s).toEqual({
      action: 'kedocx',
      kedocx: '',
      kedocx_format: 'pdf',
      report: null,
      report_format: 'pdf',
      event_id: null,
      popup_view: '',
      popup_custom_view: '',
    });
    expect(customActionButtonField.settingsSchema.safeParse({ action: 'shell' }).success).toBe(false);
  });

  it('holds no value', () => {
    expect(customActionButtonField.normalise('anything', s)).toEqual({ ok: true, value: null });
    expect(customActionButtonField.format(null, s)).toBe('');
    expect(customActionButtonField.aggregations).toEqual([]);
    expect(customActionButtonField.sortable(s)).toBe(false);
    expect(customActionButtonField.sqlCast(s)).toBe('none');
  });
});
