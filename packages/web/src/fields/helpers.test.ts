import { FIELD_TYPE_NAMES, TEXT_REGEX_PRESETS } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import {
  ageRangeToDates,
  agoText,
  amountAffix,
  amountToInput,
  applyDateMask,
  applyTextMask,
  applyTimeMask,
  datesToAgeRange,
  dateToInput,
  daysFromToday,
  deadlineColor,
  filterAmountInput,
  filterPhoneInput,
  formatFieldValue,
  idsOf,
  idsToValue,
  itemFieldType,
  itemLabel,
  itemOptions,
  itemSettings,
  linkPageSize,
  mailtoHref,
  operatorLabelKey,
  optionLabel,
  pickCulture,
  previewText,
  safeHref,
  searchDateToIso,
  splitRange,
  textMaskOf,
  validateFieldValue,
} from './helpers';
import { fieldItem as item } from './item-fixture';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('age slider', () => {
  it('turns an age range into the birth dates of a date_between search and back', () => {
    // 10 March 2026: aged 18 means born on or before 10-03-2008; at most 120 born after 10-03-1905.
    expect(ageRangeToDates([18, 120], NOW)).toBe('1905-03-11,2008-03-10');
    expect(ageRangeToDates([30, 30], NOW)).toBe('1995-03-11,1996-03-10');
    expect(datesToAgeRange('1905-03-11,2008-03-10', NOW)).toEqual([18, 120]);
    expect(datesToAgeRange('1995-03-11,1996-03-10', NOW)).toEqual([30, 30]);
    expect(datesToAgeRange('nonsense', NOW)).toBeNull();
  });
});

describe('text masks', () => {
  it('picks the mask from the preset regex or phone_number', () => {
    expect(textMaskOf({ regex: TEXT_REGEX_PRESETS.numbers_only, phone_number: false })).toBe('digits');
    expect(textMaskOf({ regex: TEXT_REGEX_PRESETS.municipal_code, phone_number: false })).toBe('municipal');
    expect(textMaskOf({ regex: TEXT_REGEX_PRESETS.dutch_zipcode, phone_number: false })).toBe('zipcode');
    expect(textMaskOf({ regex: TEXT_REGEX_PRESETS.denomination, phone_number: false })).toBe('denomination');
    expect(textMaskOf({ regex: '^x$', phone_number: false })).toBe('none');
    expect(textMaskOf({ regex: TEXT_REGEX_PRESETS.numbers_only, phone_number: true })).toBe('phone');
  });

  it('filters digits and the municipal code', () => {
    expect(applyTextMask('digits', 'a1b2 3')).toBe('123');
    expect(applyTextMask('municipal', '036312')).toBe('0363');
    expect(applyTextMask('none', 'anything 1')).toBe('anything 1');
  });

  it('shapes a Dutch zipcode', () => {
    expect(applyTextMask('zipcode', '1234ab')).toBe('1234 AB');
    expect(applyTextMask('zipcode', '1234 abc')).toBe('1234 AB');
    expect(applyTextMask('zipcode', '123')).toBe('123');
    expect(applyTextMask('zipcode', '0123')).toBe('');
    expect(applyTextMask('zipcode', '12345')).toBe('1234');
    expect(applyTextMask('zipcode', '1234 ')).toBe('1234 ');
  });

  it('keeps a denomination to two decimals', () => {
    expect(applyTextMask('denomination', '12,345')).toBe('12,34');
    expect(applyTextMask('denomination', '1a2.5')).toBe('12.5');
    expect(applyTextMask('denomination', '7')).toBe('7');
  });

  it('filters phone numbers', () => {
    expect(filterPhoneInput('+31 (0)6-12a34')).toBe('+31 (0)6-1234');
    expect(filterPhoneInput('06+12')).toBe('0612');
    expect(applyTextMask('phone', 'x+316')).toBe('+316');
  });

  it('lets only digits, dot, comma and space into amounts', () => {
    expect(filterAmountInput('€ 1.234,5e6-')).toBe(' 1.234,56');
  });
});

describe('date and time masks', () => {
  it('masks DD-MM-YYYY', () => {
    expect(applyDateMask('1')).toBe('1');
    expect(applyDateMask('123')).toBe('12-3');
    expect(applyDateMask('12032026')).toBe('12-03-2026');
    expect(applyDateMask('12-03-20269')).toBe('12-03-2026');
  });

  it('masks DD-MM-YYYY HH:mm with time', () => {
    expect(applyDateMask('120320261430', true)).toBe('12-03-2026 14:30');
    expect(applyDateMask('1203202614', true)).toBe('12-03-2026 14');
  });

  it('masks HH:mm', () => {
    expect(applyTimeMask('1430')).toBe('14:30');
    expect(applyTimeMask('9:5')).toBe('9:5');
    expect(applyTimeMask('ab12:345')).toBe('12:34');
    expect(applyTimeMask('14')).toBe('14');
  });

  it('refuses hours above 23 and minutes above 59 (digits only)', () => {
    expect(applyTimeMask('25')).toBe('2');
    expect(applyTimeMask('2359')).toBe('23:59');
    expect(applyTimeMask('1467')).toBe('14:');
    expect(applyTimeMask('14:7')).toBe('14:');
    expect(applyTimeMask('1a4b3c0')).toBe('14:30');
    expect(applyTimeMask('48:30', true)).toBe('48:30');
    expect(applyTimeMask('48:70', true)).toBe('48:');
  });

  it('lets durations have up to four hour digits', () => {
    expect(applyTimeMask('12345', true)).toBe('1234');
    expect(applyTimeMask('120:30', true)).toBe('120:30');
  });

  it('turns stored dates into editor text via the registry', () => {
    expect(dateToInput('2026-03-12', { withtime: false })).toBe('12-03-2026');
    expect(dateToInput('2026-03-12T13:30:00.000Z', { withtime: true })).toBe('12-03-2026 14:30');
    expect(dateToInput(null, { withtime: false })).toBe('');
  });

  it('reads search dates as ISO', () => {
    expect(searchDateToIso('12-03-2026')).toBe('2026-03-12');
    expect(searchDateToIso('31-02-2026')).toBeNull();
  });
});

describe('deadline colours and show_ago', () => {
  const reminders = [
    { number: 1, type: 'week' as const, when: 'before' as const, color: 'orange' },
    { number: 1, type: 'day' as const, when: 'after' as const, color: 'red' },
    { number: 2, type: 'month' as const, when: 'before' as const, color: '' },
  ];

  it('colours a date from a reminder moment on', () => {
    expect(deadlineColor('2026-03-30', reminders, NOW)).toBeNull();
    expect(deadlineColor('2026-03-15', reminders, NOW)).toBe('orange');
    expect(deadlineColor('2026-03-10', reminders, NOW)).toBe('orange');
    expect(deadlineColor('2026-03-09', reminders, NOW)).toBe('red');
    expect(deadlineColor('2026-03-09T10:00:00.000Z', reminders, NOW)).toBe('red');
    expect(deadlineColor(null, reminders, NOW)).toBeNull();
  });

  it('counts days from today', () => {
    expect(daysFromToday('2026-03-13', NOW)).toBe(3);
    expect(daysFromToday('2026-03-01', NOW)).toBe(-9);
    expect(agoText('2026-03-09', 'en-GB', NOW)).toBe('yesterday');
    expect(agoText('2026-03-01', 'en_GB', NOW)).toBe('last week');
    expect(agoText('2025-01-01', 'nl-NL', NOW)).toBe('vorig jaar');
  });
});

describe('registry glue', () => {
  it('validates through normalise with the registry messages', () => {
    expect(validateFieldValue('time', '25:00', {})).toEqual({
      ok: false,
      message: 'Hours must be between 0 and 23',
    });
    expect(validateFieldValue('time', '25:00', { disable_limit: true })).toEqual({
      ok: true,
      value: '25:00',
    });
    expect(validateFieldValue('amount', '1.234,567', { decimals: 2 })).toEqual({ ok: true, value: 1234.57 });
    expect(
      validateFieldValue('date', '12-03-2026', { restriction: 'before_and_eq_current_date' }, { now: NOW }),
    ).toMatchObject({ ok: false });
    expect(validateFieldValue('foo', 'x', {})).toEqual({ ok: false, message: 'Unknown field type' });
  });

  it('formats through the registry in nl-NL', () => {
    expect(formatFieldValue('amount', 1234.5, { valueType: 'currency', currency: 'EUR' }, 'nl_NL')).toBe(
      '€ 1.234,50',
    );
    expect(formatFieldValue('amount', 12.5, { valueType: 'percentage', decimals: 1 })).toBe('12,5%');
    expect(formatFieldValue('autoIncrement', 7, { prefix: 'INV-' })).toBe('INV-7');
    expect(formatFieldValue('date', '2026-03-12', {})).toBe('12-03-2026');
    expect(formatFieldValue('nope', 'x', {})).toBe('');
  });

  it('gives amount affixes and input text', () => {
    expect(amountAffix({ valueType: 'currency', currency: 'EUR' }, 'nl-NL')).toEqual({
      prefix: '€',
      suffix: '',
    });
    expect(amountAffix({ valueType: 'percentage', currency: 'EUR' })).toEqual({ prefix: '', suffix: '%' });
    expect(amountAffix({ valueType: 'number', currency: 'EUR' })).toEqual({ prefix: '', suffix: '' });
    // Spec document 2: the known currencies show their symbols.
    const symbol = (currency: string) => amountAffix({ valueType: 'currency', currency }, 'nl-NL').prefix;
    expect(['USD', 'COP', 'CRC', 'GBP', 'ILS', 'INR', 'JPY', 'KRW'].map(symbol)).toEqual([
      '$',
      '$',
      '₡',
      '£',
      '₪',
      '₹',
      '¥',
      '₩',
    ]);
    expect(['NGN', 'PHP', 'PLN', 'PYG', 'THB', 'UAH', 'VND'].map(symbol)).toEqual([
      '₦',
      '₱',
      'zł',
      '₲',
      '฿',
      '₴',
      '₫',
    ]);
    expect(amountAffix({ valueType: 'currency', currency: 'EUR' }, 'en-US')).toEqual({
      prefix: '€',
      suffix: '',
    });
    expect(amountAffix({ valueType: 'currency', currency: 'EUR' }, 'de-DE')).toEqual({
      prefix: '',
      suffix: '€',
    });
    expect(filterAmountInput('1e5%')).toBe('15'); // percentage: no 'e'
    expect(amountToInput(1234.5, 2)).toBe('1234,50');
    expect(amountToInput(null, 2)).toBe('');
  });

  it('reads type, settings, label and options from a display item', () => {
    const it1 = item('text', { size: 20 }, { translations: [{ culture: 'nl_NL', name: 'Naam' }] });
    expect(itemFieldType(it1)).toBe('text');
    expect(itemSettings(it1)).toMatchObject({ size: 20, regex: '' });
    expect(itemLabel(it1, 'nl_NL')).toBe('Naam');
    expect(itemLabel(item('text'), 'nl_NL')).toBe('Field name');
    const linkItem = item(
      'text',
      {},
      { def_dossier_def_field: null, def_dossier_link: { settings: {} } as never },
    );
    expect(itemFieldType(linkItem)).toBe('link');
    const listItem = item('list');
    (listItem.def_dossier_def_field!.def_field as Record<string, unknown>).def_field_lists = [
      { id: 9, rank: 2, translations: [{ culture: 'en_GB', text: 'B' }] },
      {
        id: 8,
        rank: 1,
        translations: [
          { culture: 'nl_NL', text: 'Een' },
          { culture: 'en_GB', text: 'One' },
        ],
      },
    ];
    const options = itemOptions(listItem);
    expect(options.map((o) => o.id)).toEqual([8, 9]);
    expect(optionLabel(options[0], 'en_US')).toBe('One');
    expect(optionLabel(options[1], 'nl_NL')).toBe('B');
    expect(pickCulture([], 'nl')).toBeUndefined();
  });

  it('converts ids for pickers', () => {
    expect(idsOf(3)).toEqual([3]);
    expect(idsOf([1, '2', { id: 4 }, 'x'])).toEqual([1, 2, 4]);
    expect(idsOf(null)).toEqual([]);
    expect(idsToValue([], true)).toBeNull();
    expect(idsToValue([5, 6], false)).toBe(5);
    expect(idsToValue([5, 6], true)).toEqual([5, 6]);
  });

  it('pages links by 25 and searches by 50', () => {
    expect(linkPageSize('')).toBe(25);
    expect(linkPageSize('  ')).toBe(25);
    expect(linkPageSize('abc')).toBe(50);
  });

  it('cuts rich text previews at a word', () => {
    expect(previewText('short', 10)).toEqual({ text: 'short', cut: false });
    expect(previewText('one two three four five', 16)).toEqual({ text: 'one two three…', cut: true });
    expect(previewText('abcdefghijkl', 5)).toEqual({ text: 'abcde…', cut: true });
  });

  it('allows only http(s) hrefs', () => {
    expect(safeHref('https://x.nl')).toBe('https://x.nl');
    expect(safeHref('javascript:alert(1)')).toBeNull();
  });

  it('makes a mailto: link only of a valid address', () => {
    expect(mailtoHref('ann@example.org')).toBe('mailto:ann@example.org');
    expect(mailtoHref('<img src=x onerror=alert(1)>@example.org')).toBeNull();
    expect(mailtoHref('ann@example.org?bcc=all@example.org')).toBeNull();
    expect(mailtoHref(42)).toBeNull();
  });

  it('labels operators and splits ranges', () => {
    expect(operatorLabelKey('string_empty')).toEqual({ key: 'fields.operators.string_empty' });
    expect(operatorLabelKey('date_add_max_days_to_go')).toEqual({
      key: 'fields.operators.relative',
      parts: {
        dir: 'fields.operators.dir_add',
        bound: 'fields.operators.bound_max',
        unit: 'fields.operators.unit_days_to_go',
      },
    });
    expect(splitRange('2026-01-01, 2026-02-01')).toEqual(['2026-01-01', '2026-02-01']);
    expect(splitRange(undefined)).toEqual(['', '']);
  });
});

describe('field types', () => {
  it('knows every registry type', () => {
    expect(FIELD_TYPE_NAMES.length).toBe(19);
  });
});
