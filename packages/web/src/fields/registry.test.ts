import { FIELD_TYPE_NAMES, OPERATORS_BY_FIELD_TYPE } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { FIELD_COMPONENTS, getFieldComponents, UNKNOWN_FIELD_COMPONENTS } from './registry';
import { FieldSearchInput } from './search-input';
import { UnknownFieldType } from './unknown';

describe('field component registry', () => {
  it('has components for every registry type', () => {
    expect(Object.keys(FIELD_COMPONENTS).sort()).toEqual([...FIELD_TYPE_NAMES].sort());
    for (const type of FIELD_TYPE_NAMES) expect(typeof FIELD_COMPONENTS[type].Display).toBe('function');
  });

  it('gives the unknown-type component for anything else', () => {
    expect(getFieldComponents('nope')).toBe(UNKNOWN_FIELD_COMPONENTS);
    expect(getFieldComponents(null)).toBe(UNKNOWN_FIELD_COMPONENTS);
    expect(getFieldComponents(undefined).Display).toBe(UnknownFieldType);
    expect(getFieldComponents('toString')).toBe(UNKNOWN_FIELD_COMPONENTS);
  });

  it('has no editor for autoIncrement', () => {
    expect(getFieldComponents('autoIncrement').Editor).toBeNull();
    expect(getFieldComponents('text').Editor).not.toBeNull();
  });

  it('offers a search input exactly for types with operators', () => {
    for (const type of FIELD_TYPE_NAMES) {
      const expected = OPERATORS_BY_FIELD_TYPE[type].length > 0 ? FieldSearchInput : null;
      expect(getFieldComponents(type).SearchInput, type).toBe(expected);
    }
  });
});

describe('search values', () => {
  it('checks a value against the operator schema of the registry', async () => {
    const { isSearchValueValid } = await import('./search-input');
    expect(isSearchValueValid('text', { operator: 'string_like_equals', value: 'abc' })).toBe(true);
    expect(isSearchValueValid('date', { operator: 'date_between', value: '2026-01-01,2026-02-01' })).toBe(
      true,
    );
    expect(isSearchValueValid('date', { operator: 'date_between', value: '2026-01-01,' })).toBe(false);
    expect(isSearchValueValid('list', { operator: 'equals', value: 'EMPTY' })).toBe(true);
    expect(isSearchValueValid('user', { operator: 'equals', value: 'CURRENT_USER' })).toBe(true);
    expect(isSearchValueValid('amount', { operator: 'number_gt', value: 'x' })).toBe(false);
    expect(isSearchValueValid('text', null)).toBe(false);
  });
});
