import type { LinkCounts, NewDossierAnswer, OptionCounts, PeriodCounts } from './dashboard-api';
import type { SeriesTable } from './table-layouts';

// The chart blocks' data answers (/api/mypageblock/{id}/data) as counts per period and series.

export interface SeriesLabels {
  period: string;
  noPeriod: string;
  noValue: string;
  count: string;
}

/** The colour of dossiers without a value (grey). */
export const NO_VALUE_COLOR = '#868e96';

const periodsOf = (rows: readonly { period: string | null }[], noPeriod: string) => [
  ...new Set(rows.map((r) => r.period ?? noPeriod)),
];

/** count_list_options: a series per list option (and one for no or an unknown option when present). */
export function optionSeries(answer: OptionCounts, labels: SeriesLabels): SeriesTable {
  const known = new Set(answer.options.map((o) => o.id));
  const keyOf = (option: number | null) => (option === null || !known.has(option) ? 'none' : `o${option}`);
  const counts = new Map<string, number>();
  for (const r of answer.rows) {
    const cell = `${r.period ?? labels.noPeriod}\u0000${keyOf(r.option)}`;
    counts.set(cell, (counts.get(cell) ?? 0) + r.count);
  }
  const series = answer.options.map((o) => ({ key: `o${o.id}`, label: o.label, color: o.color }));
  if (answer.rows.some((r) => keyOf(r.option) === 'none'))
    series.push({ key: 'none', label: labels.noValue, color: NO_VALUE_COLOR });
  return {
    rowHeading: labels.period,
    rows: periodsOf(answer.rows, labels.noPeriod),
    series,
    value: (row, key) => counts.get(`${row}\u0000${key}`) ?? 0,
  };
}

/** count_link_options: a series per linked dossier, in the order the server ranks them. */
export function linkSeries(answer: LinkCounts, labels: SeriesLabels): SeriesTable {
  const counts = new Map<string, number>();
  const dossiers = new Map<number, string>();
  for (const r of answer.rows) {
    if (!dossiers.has(r.dossier)) dossiers.set(r.dossier, r.summary || `#${r.dossier}`);
    const cell = `${r.period ?? labels.noPeriod}\u0000d${r.dossier}`;
    counts.set(cell, (counts.get(cell) ?? 0) + r.count);
  }
  return {
    rowHeading: labels.period,
    rows: periodsOf(answer.rows, labels.noPeriod),
    series: [...dossiers].map(([id, summary]) => ({ key: `d${id}`, label: summary, color: null })),
    value: (row, key) => counts.get(`${row}\u0000${key}`) ?? 0,
  };
}

/** date_statistics: one series of counts per period. */
export function periodSeries(answer: PeriodCounts, labels: SeriesLabels): SeriesTable {
  const counts = new Map<string, number>();
  for (const r of answer.rows) {
    const row = r.period ?? labels.noPeriod;
    counts.set(row, (counts.get(row) ?? 0) + r.count);
  }
  return {
    rowHeading: labels.period,
    rows: [...counts.keys()],
    series: [{ key: 'count', label: labels.count, color: null }],
    value: (row) => counts.get(row) ?? 0,
  };
}

/** new_dossier_statistics: a series per week (last, two and three weeks ago) over the weekdays 1 to 7. */
export function weekdaySeries(
  answer: NewDossierAnswer,
  weeks: { lastweek: string; twoweeks: string; threeweeks: string },
  weekday: string,
  dayName: (isoDay: number) => string,
): SeriesTable {
  const keys = ['lastweek', 'twoweeks', 'threeweeks'] as const;
  const days = [1, 2, 3, 4, 5, 6, 7];
  return {
    rowHeading: weekday,
    rows: days.map(dayName),
    series: keys.map((key) => ({ key, label: weeks[key], color: null })),
    value: (row, key) => {
      const day = days.find((d) => dayName(d) === row);
      return answer[key as (typeof keys)[number]].find((d) => d.created_at === day)?.cd_count ?? 0;
    },
  };
}
