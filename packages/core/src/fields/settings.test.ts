import { describe, expect, it } from 'vitest';
import type { DisplayItem } from '../api/entity';
import {
  displayItemRows,
  dossierColumnValue,
  fieldSettingsOf,
  fieldTypeOf,
  type ItemRows,
  isItemSortable,
  valueTypeOf,
} from './item';
import { fieldTypes } from './registry';
import { mergeSettings, parseFieldSettings, validateFieldSettings } from './settings';

const rows = (over: Partial<ItemRows> = {}): ItemRows => ({
  item: { id: 1, settings: {} },
  dataField: { obligatory: false, settings: {} },
  field: { type: 'list', settings: {} },
  link: null,
  ...over,
});

describe('merging settings', () => {
  it('lets later levels override earlier ones key by key, and ignores levels that are not objects', () => {
    expect(mergeSettings({ a: 1, b: 1 }, { b: 2 }, null, 'x', [3], { c: 3 })).toEqual({ a: 1, b: 2, c: 3 });
  });

  it('keeps a "__proto__" key of stored JSON a plain key', () => {
    const merged = mergeSettings(JSON.parse('{"__proto__": {"multiple": true}}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect((merged as { multiple?: unknown }).multiple).toBeUndefined();
  });
});

describe('reading settings', () => {
  it('fills in the defaults and keeps the type of a literal type name', () => {
    const list = parseFieldSettings('list', undefined);
    expect(list).toEqual(fieldTypes.list.settingsSchema.parse({}));
    expect(list.multiple).toBe(false);
  });

  it('merges base field, data field and display item, in that order', () => {
    const text = parseFieldSettings('text', { regex: '^a$', size: 10 }, { regex: '^b$' }, { size: 20 });
    expect(text.regex).toBe('^b$');
    expect(text.size).toBe(20);
  });

  it('never throws: a key that does not parse takes the default, the others stay', () => {
    const text = parseFieldSettings('text', { regex: '(', size: 10, validators: ['BSN'] });
    expect(text).toEqual({ regex: '', size: 10, validators: ['BSN'], phone_number: false });
    const list = parseFieldSettings('list', 'not settings', { multiple: 'yes', fast_switch: true });
    expect(list.multiple).toBe(false);
    expect(list.fast_switch).toBe(true);
  });

  it('gives an unknown type no settings', () => {
    expect(parseFieldSettings('colour', { a: 1 })).toEqual({});
  });
});

describe('checking settings an admin sends', () => {
  it('checks a base field whole and answers its defaults', () => {
    expect(validateFieldSettings('list', { multiple: true }, 'base')).toEqual({
      ok: true,
      settings: { ...fieldTypes.list.settingsSchema.parse({}), multiple: true },
    });
    const bad = validateFieldSettings('text', { regex: '(', size: 0 }, 'base');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.errors).sort()).toEqual(['settings.regex', 'settings.size']);
  });

  it('checks overrides key by key and keeps the keys the type does not know', () => {
    expect(validateFieldSettings('list', { multiple: true, show_info_direct: 1 }, 'override')).toEqual({
      ok: true,
      settings: { multiple: true, show_info_direct: 1 },
    });
    expect(validateFieldSettings('list', { default_list_option: '' }, 'override')).toEqual({
      ok: true,
      settings: { default_list_option: null },
    });
    expect(validateFieldSettings('text', { regex: '[' }, 'override')).toEqual({
      ok: false,
      errors: { 'settings.regex': 'Invalid regular expression' },
    });
    expect(validateFieldSettings('list', { multiple: 'yes' }, 'override').ok).toBe(false);
    expect(validateFieldSettings('list', [1], 'override').ok).toBe(false);
    expect(validateFieldSettings('list', undefined, 'override')).toEqual({ ok: true, settings: {} });
  });
});

describe('the field behind a display item', () => {
  it('reads the type and the merged settings of field, link and dossier-data items', () => {
    const field = rows({
      field: { type: 'list', settings: { multiple: false, fast_switch: true } },
      dataField: { obligatory: false, settings: { multiple: true } },
      item: { id: 1, settings: { checkbox_view: true } },
    });
    expect(fieldTypeOf(field)).toBe('list');
    expect(fieldSettingsOf(field)).toMatchObject({ multiple: true, fast_switch: true, checkbox_view: true });

    const link = rows({
      dataField: null,
      field: null,
      link: { obligatory: false, settings: { multiple: false } },
      item: { id: 2, settings: { multiple: true } },
    });
    expect(fieldTypeOf(link)).toBe('link');
    expect(fieldSettingsOf(link).multiple).toBe(true);

    const data = rows({
      dataField: null,
      field: null,
      item: { id: 3, settings: { dossier_data: 'created_by' } },
    });
    expect(fieldTypeOf(data)).toBeNull();
    expect(valueTypeOf(data)).toBe('systemuser');
    expect(fieldSettingsOf(data)).toEqual({});
    expect(valueTypeOf(rows({ dataField: null, field: null }))).toBeNull();
  });

  it('parses the settings of one rows object once, and again when a settings object is replaced', () => {
    const field = rows({
      field: { type: 'list', settings: { multiple: false } },
      dataField: { obligatory: false, settings: {} },
      item: { id: 4, settings: {} },
    });
    const first = fieldSettingsOf(field);
    expect(fieldSettingsOf(field)).toBe(first);
    field.item = { ...field.item, settings: { multiple: true } };
    expect(fieldSettingsOf(field).multiple).toBe(true);
    field.field = { type: 'text', settings: {} };
    expect(fieldSettingsOf(field).multiple).toBeUndefined();
  });

  it('sorts on dossier data, single links and fields whose type sorts them', () => {
    const link = (multiple: boolean) =>
      rows({
        dataField: null,
        field: null,
        link: { obligatory: false, settings: {} },
        item: { id: 2, settings: { multiple } },
      });
    expect(isItemSortable(link(false))).toBe(true);
    expect(isItemSortable(link(true))).toBe(false);
    expect(
      isItemSortable(
        rows({ dataField: null, field: null, item: { id: 3, settings: { dossier_data: 'summary' } } }),
      ),
    ).toBe(true);
    expect(isItemSortable(rows({ dataField: null, field: null }))).toBe(false);
    expect(isItemSortable(rows({ field: { type: 'systemdate', settings: {} } }))).toBe(true);
    expect(isItemSortable(rows({ field: { type: 'textarea', settings: {} } }))).toBe(false);
    expect(isItemSortable(rows({ field: { type: 'customActionButton', settings: {} } }))).toBe(false);
    expect(isItemSortable(rows({ field: { type: 'colour', settings: {} } }))).toBe(false);
  });

  it('reads an item as the API sends it the same way', () => {
    const item = {
      id: 5,
      settings: { size: 20 },
      def_dossier_link: null,
      def_dossier_def_field: {
        obligatory: true,
        settings: { regex: '^b$' },
        def_field: { type: 'text', settings: { regex: '^a$', size: 10 } },
      },
    } as unknown as DisplayItem;
    const flat = displayItemRows(item);
    expect(flat.dataField?.obligatory).toBe(true);
    expect(fieldSettingsOf(flat)).toMatchObject({ regex: '^b$', size: 20 });
  });

  it('reads the dossier columns system fields show', () => {
    const dossier = {
      created_at: new Date('2026-01-01T10:00:00Z'),
      modified_at: '2026-02-01T10:00:00.000Z',
      created_by: 3,
      modified_by: null,
    };
    expect(dossierColumnValue(dossier, 'created_at')).toBe('2026-01-01T10:00:00.000Z');
    expect(dossierColumnValue(dossier, 'modified_at')).toBe('2026-02-01T10:00:00.000Z');
    expect(dossierColumnValue(dossier, 'created_by')).toBe(3);
    expect(dossierColumnValue(dossier, 'modified_by')).toBeNull();
  });
});
