import { describe, expect, it } from 'vitest';
import { linkSeries, NO_VALUE_COLOR, optionSeries, periodSeries, weekdaySeries } from './chart-data';

const labels = { period: 'Period', noPeriod: 'No date', noValue: 'No value', count: 'Number' };

describe('chart data', () => {
  it('count_list_options: a series per option, one for no value, periods in order', () => {
    const table = optionSeries(
      {
        options: [
          { id: 1, label: 'Open', color: '#1c7ed6' },
          { id: 2, label: 'Closed', color: null },
        ],
        rows: [
          { period: '2026-01', option: 1, count: 3 },
          { period: '2026-01', option: null, count: 2 },
          { period: '2026-01', option: 99, count: 1 },
          { period: null, option: 2, count: 4 },
        ],
      },
      labels,
    );
    expect(table.rows).toEqual(['2026-01', 'No date']);
    expect(table.series).toEqual([
      { key: 'o1', label: 'Open', color: '#1c7ed6' },
      { key: 'o2', label: 'Closed', color: null },
      { key: 'none', label: 'No value', color: NO_VALUE_COLOR },
    ]);
    expect(table.value('2026-01', 'o1')).toBe(3);
    // no option and an option the user may not see both count as no value
    expect(table.value('2026-01', 'none')).toBe(3);
    expect(table.value('No date', 'o2')).toBe(4);
    expect(table.value('No date', 'o1')).toBe(0);
  });

  it('count_link_options: a series per linked dossier', () => {
    const table = linkSeries(
      {
        rows: [
          { period: '2026', dossier: 7, summary: 'Anna', count: 2 },
          { period: '2026', dossier: 8, summary: '', count: 1 },
          { period: '2027', dossier: 7, summary: 'Anna', count: 5 },
        ],
      },
      labels,
    );
    expect(table.series.map((s) => s.label)).toEqual(['Anna', '#8']);
    expect(table.rows).toEqual(['2026', '2027']);
    expect(table.value('2027', 'd7')).toBe(5);
    expect(table.value('2027', 'd8')).toBe(0);
  });

  it('date_statistics: one series', () => {
    const table = periodSeries(
      {
        rows: [
          { period: '2026-W01', count: 4 },
          { period: null, count: 1 },
        ],
      },
      labels,
    );
    expect(table.rows).toEqual(['2026-W01', 'No date']);
    expect(table.value('2026-W01', 'count')).toBe(4);
  });

  it('new_dossier_statistics: three weeks over seven days', () => {
    const table = weekdaySeries(
      {
        lastweek: [{ created_at: 1, cd_count: 5 }],
        twoweeks: [{ created_at: 7, cd_count: 2 }],
        threeweeks: [],
      },
      { lastweek: 'Last', twoweeks: 'Two', threeweeks: 'Three' },
      'Day',
      (day) => `d${day}`,
    );
    expect(table.rows).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7']);
    expect(table.value('d1', 'lastweek')).toBe(5);
    expect(table.value('d7', 'twoweeks')).toBe(2);
    expect(table.value('d7', 'threeweeks')).toBe(0);
  });
});
