import { type DisplayItem, type DisplayPosition, parseConditions, TEXT_MESSAGES } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { itemSettings, validateFieldValue } from '../../fields/helpers';
import {
  detailTabs,
  firstErrorItem,
  formRules,
  hasChanges,
  initialValues,
  itemsForMode,
  massUpdateItem,
  massUpdateValues,
  readSettings,
  requiredErrors,
  toPayload,
} from './form-logic';
import { knownUsers } from './known-users';

function field(
  id: number,
  type: string,
  extra: Partial<DisplayItem> & {
    obligatory?: boolean;
    /** the base field's settings */
    settings?: Record<string, unknown>;
    /** the data field's overrides */
    dataSettings?: Record<string, unknown>;
  } = {},
): DisplayItem {
  const { obligatory = false, settings = {}, dataSettings = {}, ...rest } = extra;
  return {
    id,
    uuid: `u${id}`,
    def_dossier_id: 1,
    display_position_id: 100,
    def_dossier_def_field: {
      id: id * 10,
      uuid: '',
      environment_id: 1,
      def_dossier_id: 1,
      name: `F${id}`,
      obligatory,
      locked: false,
      roles: [],
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
      settings: dataSettings,
      def_field: { id: id * 100, uuid: '', name: `F${id}`, type, settings },
    },
    def_dossier_link: null,
    view: 'show/edit',
    col: 1,
    rank: id,
    colspan: 12,
    rowspan: 0,
    roles: [],
    permissions_type: 'EXCLUDE_SELECTED_ROLES',
    translations: [],
    settings: {},
    ...rest,
  };
}

function link(id: number, obligatory = false): DisplayItem {
  return {
    ...field(id, 'text'),
    def_dossier_def_field: null,
    def_dossier_link: {
      id: 7,
      uuid: '',
      environment_id: 1,
      def_dossier_id: 1,
      child_def_dossier_id: 2,
      back_link_id: null,
      name: 'Org',
      type_of_link: 'select',
      cascade_rule: 'maintain',
      archive_cascade_rule: '',
      obligatory,
      locked: false,
      disable_backlink: false,
      settings: {},
    },
  };
}

const status = field(1, 'list');
const reason = field(2, 'text');
const note = field(3, 'textarea');
const conditions = parseConditions([
  {
    rules: [{ type: 'and', fields: [{ field: 1, field_method: 'equals', values: [5] }] }],
    actions: [
      { type: 'show_fields', values: [2] },
      { type: 'require_fields', values: [2, 3] },
    ],
  },
]);

describe('conditions on the client', () => {
  it('hides show_fields items until the rule matches and requires require_fields items when it does', () => {
    expect(formRules([status, reason, note], conditions, { 1: 4 })).toEqual({
      hidden: new Set(['2']),
      required: new Set(),
    });
    expect(formRules([status, reason, note], conditions, { 1: [5] })).toEqual({
      hidden: new Set(),
      required: new Set(['2', '3']),
    });
  });

  it('reports required items that are empty, never hidden ones', () => {
    expect(requiredErrors([status, reason, note], conditions, { 1: 4 })).toEqual({});
    expect(requiredErrors([status, reason, note], conditions, { 1: 5, 3: '<p>x</p>' })).toEqual({
      2: 'This is a required field',
    });
  });

  it('treats obligatory fields and links as required; an empty link list is empty', () => {
    const name = field(4, 'text', { obligatory: true });
    const org = link(5, true);
    expect(requiredErrors([name, org], [], { 4: '  ', 5: [] })).toEqual({
      4: 'This is a required field',
      5: 'This is a required field',
    });
    expect(requiredErrors([name, org], [], { 4: 'Ann', 5: [{ id: 9, summary: 'Acme' }] })).toEqual({});
  });
});

describe('value mapping', () => {
  it('sends editable, shown items keyed by display item id; links as ids; server types never', () => {
    const org = link(5);
    const calc = field(6, 'calc');
    const showOnly = field(8, 'text', { view: 'show' });
    const payload = toPayload([status, reason, org, calc, showOnly], conditions, {
      1: 4,
      2: 'hidden now',
      5: [{ id: 9, summary: 'Acme', def_dossier_id: 2, archived: false }],
      6: 12,
      8: 'x',
    });
    expect(payload).toEqual({ 1: 4, 5: [9] });
  });

  it('notices changes by wire value only', () => {
    const org = link(5);
    const start = { 5: [{ id: 9, summary: 'Acme' }] };
    expect(hasChanges([org, reason], start, { 5: [9], 2: null })).toBe(false);
    expect(hasChanges([org, reason], start, { 5: [9], 2: 'x' })).toBe(true);
  });

  it('starts a new dossier with the default list option and the current user', () => {
    const list = field(1, 'list');
    const owner = field(9, 'user', { settings: { default_current_user: true } });
    const values = initialValues([list, owner, reason], new Map([[100, [{ id: 41, default: true }]]]), 3);
    expect(values).toEqual({ 1: 41, 9: 3 });
  });
});

// The server validates a value with the base field's settings overridden by the data field's (and
// the display item's); the form must show, check and fill in with the same settings. The server's
// side of this case: packages/server/src/field-settings.test.ts.
describe('settings a data field overrides', () => {
  const tags = field(30, 'list', { settings: { multiple: false }, dataSettings: { multiple: true } });
  const code = field(31, 'text', { settings: { regex: '^[0-9]+$' }, dataSettings: { regex: '^[A-Z]{2}$' } });

  it('are the settings the form shows and checks with', () => {
    expect(itemSettings(tags)).toMatchObject({ multiple: true });
    expect(validateFieldValue('list', [41, 42], itemSettings(tags))).toEqual({ ok: true, value: [41, 42] });
    expect(validateFieldValue('text', 'AB', itemSettings(code))).toEqual({ ok: true, value: 'AB' });
    expect(validateFieldValue('text', '12', itemSettings(code))).toEqual({
      ok: false,
      message: TEXT_MESSAGES.pattern,
    });
  });

  it('are the settings a new dossier starts with', () => {
    expect(initialValues([tags], new Map([[3000, [{ id: 41, default: true }]]]), 3)).toEqual({ 30: [41] });
  });
});

describe('layout helpers', () => {
  it('shows show and show/edit items in show mode, and leaves autoIncrement out of edit mode', () => {
    const editOnly = field(10, 'text', { view: 'edit' });
    const counter = field(11, 'autoIncrement');
    expect(itemsForMode([reason, editOnly, counter], 'show').map((i) => i.id)).toEqual([2, 11]);
    expect(itemsForMode([reason, editOnly, counter], 'edit').map((i) => i.id)).toEqual([2, 10]);
  });

  it('finds the first error in layout order', () => {
    const a = field(20, 'text', { rank: 2, col: 1 });
    const b = field(21, 'text', { rank: 1, col: 7 });
    expect(firstErrorItem([a, b], { 20: 'x', 21: 'y' })?.id).toBe(21);
  });

  it('orders main content before tabs, drops hidden positions, or reads positions from the items', () => {
    const position = (
      id: number,
      type: DisplayPosition['type'],
      rank: number,
      hide = false,
    ): DisplayPosition => ({
      id,
      uuid: '',
      def_dossier_id: 1,
      type,
      hide,
      rank,
      view_name: null,
      translations: [{ culture: 'en_GB', name: `P${id}` }],
    });
    const positions = [
      position(3, 'tab', 1),
      position(1, 'main_content', 5),
      position(4, 'tab', 0, true),
      position(5, 'footer', 0),
    ];
    expect(detailTabs(positions, [], (p) => p.translations[0].name)).toEqual([
      { id: 1, type: 'main_content', name: 'P1' },
      { id: 3, type: 'tab', name: 'P3' },
    ]);
    const items = [
      field(1, 'text', { display_position_id: 8 }),
      field(2, 'text', { display_position_id: 9 }),
      field(3, 'text', { display_position_id: 8 }),
    ];
    expect(detailTabs(null, items, () => '')).toEqual([
      { id: 8, type: 'main_content', name: null },
      { id: 9, type: 'tab', name: null },
    ]);
  });
});

describe('entity settings and known users', () => {
  it('reads detail_layout, add_continue, layout_sidebar and conditions with safe defaults', () => {
    expect(readSettings(undefined)).toEqual({
      detailLayout: 'default',
      addContinue: false,
      layoutSidebar: false,
      conditions: [],
    });
    const read = readSettings({
      detail_layout: 'vertical',
      add_continue: true,
      layout_sidebar: 'yes',
      conditions: [{ actions: [{ type: 'show_fields', values: [1] }] }],
    });
    expect(read).toMatchObject({ detailLayout: 'vertical', addContinue: true, layoutSidebar: false });
    expect(read.conditions).toHaveLength(1);
  });

  it('lists the dossier users once each', () => {
    expect(
      knownUsers(
        { id: 1, username: 'admin' },
        null,
        { id: 1, username: 'admin' },
        { id: 2, username: 'demo' },
      ),
    ).toEqual([
      { id: 1, name: 'admin' },
      { id: 2, name: 'demo' },
    ]);
  });
});

describe('mass update form (multi-update mode)', () => {
  it('no item is obligatory, so nothing is required; only the values filled in are sent', () => {
    const items = [field(1, 'text', { obligatory: true }), field(2, 'text'), field(3, 'list')].map(
      massUpdateItem,
    );
    expect(requiredErrors(items, [], {})).toEqual({});
    expect(massUpdateValues(items, { 1: '', 2: 'kept', 3: [] })).toEqual({ 2: 'kept' });
  });
});
