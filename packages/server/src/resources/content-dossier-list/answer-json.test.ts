import type { DisplayItem, DossierListBody } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { listAnswerJson } from './answer-json';

const item = (id: number, name: string) => ({ id, view: 'list', translations: [{ name, culture: 'en_GB' }] });
const body = (items: unknown[], gantt?: DossierListBody['results']['gantt']): DossierListBody => ({
  results: {
    dossiers: [],
    contents: { '12': { '1': 'Ann "quoted" \u2028', '4': null, '22': [{ id: 3, summary: 'x' }] } } as never,
    items: items as DisplayItem[],
    aggregations: [],
    ...(gantt === undefined ? {} : { gantt }),
  },
  pager: { current: 0, pages: 1, items: 1, limit: 50 },
});

describe('listAnswerJson', () => {
  it('writes what JSON.stringify writes, with and without the optional keys', () => {
    for (const answer of [
      body([item(1, 'title')]),
      body([], null),
      body([item(2, 'due')], { task_link_id: 4, task_entity_id: 5 }),
      { ...body([]), results: { ...body([]).results, gantt: undefined } },
    ])
      expect(listAnswerJson(answer)).toBe(JSON.stringify(answer));
  });

  it('writes the items of each items array: a new array after a configuration change shows the change', () => {
    const before = [item(1, 'title')];
    expect(JSON.parse(listAnswerJson(body(before))).results.items[0].translations[0].name).toBe('title');
    expect(JSON.parse(listAnswerJson(body(before))).results.items[0].translations[0].name).toBe('title');
    const after = [item(1, 'renamed'), item(4, 'city')];
    expect(JSON.parse(listAnswerJson(body(after))).results.items).toEqual(after);
    expect(JSON.parse(listAnswerJson(body(before))).results.items).toEqual(before);
  });
});
