import { describe, expect, it } from 'vitest';
import { fileField } from '../fields/file';
import { linkField } from '../fields/link';
import { listField } from '../fields/list';
import { MAX_INT4, REQUIRED_MESSAGE } from './common';
import { DOSSIER_MESSAGES, dossierWriteSchema } from './dossier';
import { dossierIdParamSchema, ID_MESSAGE, idParamSchema, idSchema } from './ids';

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

describe('ids', () => {
  it('in bodies: whole numbers from 1 to 2147483647', () => {
    expect(idSchema.parse(1)).toBe(1);
    expect(idSchema.parse(MAX_INT4)).toBe(MAX_INT4);
    for (const bad of [0, -1, 1.5, MAX_INT4 + 1, 9999999999, '12', null, Number.NaN]) {
      expect(issues(idSchema.safeParse(bad)), String(bad)).toEqual([ID_MESSAGE]);
    }
    expect(issues(idSchema.safeParse(undefined))).toEqual([REQUIRED_MESSAGE]);
  });

  it('in paths and query strings: decimal digits only', () => {
    expect(idParamSchema.parse('12')).toBe(12);
    expect(idParamSchema.parse('2147483647')).toBe(MAX_INT4);
    for (const bad of [
      '0x10',
      '1e3',
      ' 12',
      '12 ',
      '-1',
      '+5',
      '1.0',
      '0',
      '',
      '2147483648',
      '9999999999',
      '１２',
    ]) {
      expect(idParamSchema.safeParse(bad).success, bad).toBe(false);
    }
    // dossier ids are bigint: larger, but still digits only and exact in JavaScript
    expect(dossierIdParamSchema.parse('9999999999')).toBe(9999999999);
    expect(dossierIdParamSchema.safeParse('9007199254740993').success).toBe(false);
    expect(dossierIdParamSchema.safeParse('0x10').success).toBe(false);
  });

  it('dossier values are keyed by display item ids that fit the column', () => {
    expect(dossierWriteSchema.safeParse({ defDossier: 1, values: { '12': 'x' } }).success).toBe(true);
    for (const key of ['0x1', '99999999999', '2147483648', 'a']) {
      const result = dossierWriteSchema.safeParse({ defDossier: 1, values: { [key]: 'x' } });
      expect(issues(result), key).toEqual([DOSSIER_MESSAGES.unknownItem]);
    }
  });

  it('field values that name options, users or files stay within the integer column; links may be larger', () => {
    const list = listField.settingsSchema.parse({});
    const file = fileField.settingsSchema.parse({});
    const link = linkField.settingsSchema.parse({});
    expect(listField.normalise(MAX_INT4 + 1, list).ok).toBe(false);
    expect(listField.normalise('9999999999', list).ok).toBe(false);
    expect(fileField.normalise(9999999999, file).ok).toBe(false);
    expect(fileField.normalise(12, file)).toEqual({ ok: true, value: 12 });
    expect(linkField.normalise(9999999999, link)).toEqual({ ok: true, value: 9999999999 });
    expect(linkField.normalise(2 ** 53, link).ok).toBe(false);
  });
});
