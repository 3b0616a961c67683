import { describe, expect, it } from 'vitest';
import { OPERATOR_VALUE_KINDS } from './operators';
import { FIELD_TYPE_NAMES, fieldTypes, getFieldType, isFieldTypeName, operatorValueSchema } from './registry';
import { parseFieldSettings } from './settings';

// One sample input per type that must normalise to a value its own valueSchema accepts.
const SAMPLES: Record<string, unknown> = {
  text: 'a',
  textarea: '<p>a</p>',
  amount: '1,5',
  url: 'example.com',
  email: 'a@b.nl',
  autoIncrement: 3,
  calc: 2,
  imageCode: 'ABC',
  date: '01-02-2024',
  time: '8:15',
  file: 4,
  geolocation: { lat: 1, lng: 2 },
  list: 1,
  tree: 1,
  user: 1,
  link: 1,
  customActionButton: null,
  systemdate: '2024-01-01T10:00:00Z',
  systemuser: 1,
};

describe('field-type registry', () => {
  it('holds one module per type, each named after its key', () => {
    expect(Object.keys(fieldTypes).sort()).toEqual([...FIELD_TYPE_NAMES].sort());
    for (const name of FIELD_TYPE_NAMES) expect(fieldTypes[name].type).toBe(name);
  });

  it('throws a clear error for an unknown type', () => {
    expect(() => getFieldType('colour')).toThrow('Unknown field type: "colour"');
    expect(() => getFieldType('__proto__')).toThrow('Unknown field type');
    expect(isFieldTypeName('toString')).toBe(false);
    expect(getFieldType('amount')).toBe(fieldTypes.amount);
  });

  it.each(FIELD_TYPE_NAMES)('%s: defaults parse, empty is null, samples fit the value schema', (name) => {
    const type = getFieldType(name);
    const settings = parseFieldSettings(name, undefined);
    expect(type.normalise(null, settings)).toEqual({ ok: true, value: null });
    expect(type.normalise('', settings)).toEqual({ ok: true, value: null });
    const result = type.normalise(SAMPLES[name], settings);
    expect(result.ok).toBe(true);
    if (result.ok) expect(type.valueSchema(settings).safeParse(result.value).success).toBe(true);
    expect(typeof type.format(result.ok ? result.value : null, settings)).toBe('string');
    for (const op of type.operators) expect(OPERATOR_VALUE_KINDS[op]).toBeDefined();
  });

  it('answers the capabilities of each type', () => {
    const computed = FIELD_TYPE_NAMES.filter((name) => fieldTypes[name].serverComputed);
    expect(computed.sort()).toEqual([
      'autoIncrement',
      'calc',
      'customActionButton',
      'systemdate',
      'systemuser',
    ]);
    const refs = Object.fromEntries(FIELD_TYPE_NAMES.map((name) => [name, fieldTypes[name].refersTo]));
    expect(refs).toMatchObject({ list: 'options', tree: 'options', user: 'users', systemuser: 'users' });
    expect(refs).toMatchObject({ file: 'files', link: 'dossiers', text: null, systemdate: null });
    expect(
      fieldTypes.systemdate.source(parseFieldSettings('systemdate', { dossier_data: 'modified_at' })),
    ).toEqual({
      from: 'column',
      column: 'modified_at',
    });
    expect(fieldTypes.systemuser.source(parseFieldSettings('systemuser'))).toEqual({
      from: 'column',
      column: 'created_by',
    });
    expect(fieldTypes.link.source(parseFieldSettings('link'))).toEqual({ from: 'links' });
    expect(fieldTypes.text.source(parseFieldSettings('text'))).toEqual({ from: 'values' });
  });

  it('gives a new dossier the default values of date, list and user fields', () => {
    const now = new Date('2024-03-05T10:20:30.400Z');
    const date = (settings: object) =>
      fieldTypes.date.defaultValue(parseFieldSettings('date', settings), { now });
    expect(date({})).toBeNull();
    expect(date({ default_current_date: true })).toBe('2024-03-05');
    expect(date({ default_current_date: true, withtime: true })).toBe('2024-03-04T23:00:00.000Z');
    expect(date({ withtime: true, current_time_as_default: true })).toBe('2024-03-05T10:20:00.000Z');
    const options = [{ id: 3 }, { id: 4, default: true }];
    const list = (settings: object) =>
      fieldTypes.list.defaultValue(parseFieldSettings('list', settings), { options });
    expect(list({})).toBe(4);
    expect(list({ multiple: true })).toEqual([4]);
    expect(list({ default_list_option: 3 })).toBe(3);
    expect(fieldTypes.list.defaultValue(parseFieldSettings('list'), { options: [{ id: 3 }] })).toBeNull();
    const user = (settings: object) =>
      fieldTypes.user.defaultValue(parseFieldSettings('user', settings), { currentUserId: 7 });
    expect(user({})).toBeNull();
    expect(user({ default_current_user: true })).toBe(7);
    expect(user({ default_current_user: true, multiple: true })).toEqual([7]);
    for (const name of FIELD_TYPE_NAMES)
      if (!['date', 'list', 'user'].includes(name))
        expect(
          getFieldType(name).defaultValue(parseFieldSettings(name), { now, currentUserId: 7, options }),
        ).toBeNull();
  });

  it('validates condition values per operator', () => {
    expect(operatorValueSchema('list', 'equals').safeParse('EMPTY').success).toBe(true);
    expect(operatorValueSchema('list', 'in').parse(['3', 4])).toEqual([3, 4]);
    expect(operatorValueSchema('user', 'equals').safeParse('CURRENT_USER').success).toBe(true);
    expect(operatorValueSchema('date', 'equals').safeParse('NOT NULL').success).toBe(true);
    expect(operatorValueSchema('date', 'date_between').parse('2024-01-01, 2024-02-01')).toEqual([
      '2024-01-01',
      '2024-02-01',
    ]);
    expect(operatorValueSchema('date', 'date_between').safeParse('2024-01-01').success).toBe(false);
    expect(operatorValueSchema('date', 'between_weeks').parse('1,4')).toEqual(['1', '4']);
    expect(operatorValueSchema('text', 'string_empty').parse('ignored')).toBeNull();
    expect(operatorValueSchema('amount', 'number_gt').safeParse('abc').success).toBe(false);
  });
});
