import { describe, expect, it } from 'vitest';
import { queryDocumentSchema } from './document';
import { type ListFilterColumn, listFiltersToQuery, queryToListFilters } from './list-params';

const columns = new Map<number, ListFilterColumn>([
  [1, { itemId: 1, kind: 'field', fieldId: 11, type: 'text', numeric: false, multiple: false }],
  [2, { itemId: 2, kind: 'field', fieldId: 12, type: 'amount', numeric: true, multiple: false }],
  [3, { itemId: 3, kind: 'field', fieldId: 13, type: 'date', numeric: false, multiple: false }],
  [4, { itemId: 4, kind: 'field', fieldId: 14, type: 'list', numeric: false, multiple: false }],
  [5, { itemId: 5, kind: 'data', key: 'created_by', type: 'systemuser', numeric: false, multiple: false }],
  [6, { itemId: 6, kind: 'link', linkId: 16, type: 'link', numeric: false, multiple: true }],
  [7, { itemId: 7, kind: 'field', fieldId: 17, type: 'date', numeric: false, multiple: false }],
]);

describe('list parameters in the query model', () => {
  it('round-trips every kind of list filter through the model', () => {
    const params = {
      summary: 'acme',
      '1': 'ann',
      '2_min': '10',
      '2_max': '20,5',
      '3': '2026-01-10',
      '3_type': 'between',
      '3_end': '2026-02-01',
      '4': '7,8',
      '5': '3',
      '6': '100,101',
      '7': '2026-03-01',
      '7_type': 'after',
    };
    const { combinators, errors } = listFiltersToQuery(params, columns);
    expect(errors).toEqual({});
    // a valid stored document
    expect(queryDocumentSchema.safeParse({ combinators }).success).toBe(true);
    expect(queryToListFilters(combinators, columns)).toEqual({
      ...params,
      '2_max': '20.5', // the number as the model holds it
    });
  });

  it('names the parameter of each invalid value, and drops empty ones', () => {
    const { combinators, errors } = listFiltersToQuery(
      { '2_min': 'ten', '3': 'yesterday', '4': 'red', '9': 'x', '1': '  ', '3_type': 'on', '6_min': '1' },
      columns,
    );
    expect(errors).toEqual({
      '2_min': 'Enter a valid number',
      '3': 'Enter a valid date',
      '4': 'Enter a valid value',
      '9': 'Unknown field',
      '6_min': 'This filter is not supported for this field',
    });
    expect(combinators).toEqual([]);
  });
});
