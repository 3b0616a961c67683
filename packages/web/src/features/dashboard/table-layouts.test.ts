import { describe, expect, it } from 'vitest';
import { layOutTable, type SeriesTable } from './table-layouts';

// Two periods and two series: Open 3 and 1, Closed 1 and 0.
const counts: Record<string, Record<string, number>> = {
  '2026-01': { open: 3, closed: 1 },
  '2026-02': { open: 1, closed: 0 },
};
const data: SeriesTable = {
  rowHeading: 'Period',
  rows: ['2026-01', '2026-02'],
  series: [
    { key: 'open', label: 'Open' },
    { key: 'closed', label: 'Closed' },
  ],
  value: (row, key) => counts[row][key],
};
const labels = { total: 'Total', series: 'Series', count: 'Number' };

describe('table layouts', () => {
  it('ver1: a row per period, a column per series', () => {
    expect(layOutTable(data, 'ver1', labels)).toEqual({
      head: ['Period', 'Open', 'Closed'],
      body: [
        ['2026-01', 3, 1],
        ['2026-02', 1, 0],
      ],
    });
  });

  it('ver2: turned round', () => {
    expect(layOutTable(data, 'ver2', labels)).toEqual({
      head: ['Series', '2026-01', '2026-02'],
      body: [
        ['Open', 3, 1],
        ['Closed', 1, 0],
      ],
      foot: undefined,
    });
  });

  it('ver3: ver1 with totals', () => {
    expect(layOutTable(data, 'ver3', labels)).toEqual({
      head: ['Period', 'Open', 'Closed', 'Total'],
      body: [
        ['2026-01', 3, 1, 4],
        ['2026-02', 1, 0, 1],
      ],
      foot: ['Total', 4, 1, 5],
    });
  });

  it('ver4: ver2 with totals', () => {
    expect(layOutTable(data, 'ver4', labels)).toEqual({
      head: ['Series', '2026-01', '2026-02', 'Total'],
      body: [
        ['Open', 3, 1, 4],
        ['Closed', 1, 0, 1],
      ],
      foot: ['Total', 4, 1, 5],
    });
  });

  it('ver5: a list of the cells with dossiers', () => {
    expect(layOutTable(data, 'ver5', labels)).toEqual({
      head: ['Period', 'Series', 'Number'],
      body: [
        ['2026-01', 'Open', 3],
        ['2026-01', 'Closed', 1],
        ['2026-02', 'Open', 1],
      ],
    });
  });

  it('ver6: each count with its share of the period', () => {
    expect(layOutTable(data, 'ver6', labels)).toEqual({
      head: ['Period', 'Open', 'Closed', 'Total'],
      body: [
        ['2026-01', '3 (75%)', '1 (25%)', 4],
        ['2026-02', '1 (100%)', '0 (0%)', 1],
      ],
    });
  });
});
