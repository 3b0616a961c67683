import { describe, expect, it } from 'vitest';
import { linkField } from './link';

const single = linkField.settingsSchema.parse({});
const multi = linkField.settingsSchema.parse({ multiple: true, views: ['list', 'kanban'] });

describe('link field', () => {
  it('has the spec defaults (clickable on)', () => {
    expect(single.clickable).toBe(true);
    expect(single.multiple).toBe(false);
    expect(single.views).toEqual([]);
    expect(single.sort).toEqual([]);
    expect(single.limit_embedded_link).toBeNull();
    expect(linkField.settingsSchema.safeParse({ views: ['map'] }).success).toBe(false);
    expect(linkField.settingsSchema.parse({ sort: [{ dddfId: 4, sort: 'DESC' }] }).sort).toEqual([
      { dddfId: 4, sort: 'DESC' },
    ]);
  });

  it('stores linked dossier ids', () => {
    expect(linkField.normalise([3, 4], multi)).toEqual({ ok: true, value: [3, 4] });
    expect(linkField.normalise([3, 4], single)).toEqual({
      ok: false,
      message: 'Only one dossier may be linked',
    });
    expect(linkField.normalise('x', single)).toEqual({ ok: false, message: 'Choose a valid dossier' });
  });

  it('is sortable only when single, and lives outside the values column', () => {
    expect(linkField.sortable(single)).toBe(true);
    expect(linkField.sortable(multi)).toBe(false);
    expect(linkField.sqlCast(single)).toBe('none');
    expect(linkField.aggregations).toContain('unique');
    expect(linkField.operators).toEqual([]);
  });
});
