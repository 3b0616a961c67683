import type { TableLayout } from '@dossierbase/core';

// The chart blocks' table layouts ver1 to ver6. The spec names them without saying what they are, so
// they are defined here (and explained in the block editor's Info tab, dashboard.table_layout_help):
//   ver1  a row per period, a column per series (the figures table beside every chart)
//   ver2  turned round: a row per series, a column per period
//   ver3  ver1 with a total per period (last column) and per series (last row)
//   ver4  ver2 with a total per series (last column) and per period (last row)
//   ver5  a list: a row per period and series that has dossiers (period, series, count)
//   ver6  ver1 with each count's share of its period, and the period's total

/** Counts per period (rows) and series (columns). */
export interface SeriesTable {
  /** the first column's heading (Period) */
  rowHeading: string;
  rows: string[];
  series: { key: string; label: string; color?: string | null }[];
  /** value of series key in row */
  value: (row: string, key: string) => number;
}

export interface TableLabels {
  total: string;
  series: string;
  count: string;
}

export interface LaidOutTable {
  head: string[];
  body: (string | number)[][];
  /** a totals row, set apart as the table's footer */
  foot?: (string | number)[];
}

const sum = (values: number[]) => values.reduce((n, v) => n + v, 0);
const percent = (part: number, whole: number) =>
  whole === 0 ? '0%' : `${Math.round((1000 * part) / whole) / 10}%`;

export function layOutTable(data: SeriesTable, layout: TableLayout, labels: TableLabels): LaidOutTable {
  const { rows, series, value } = data;
  const periodTotal = (row: string) => sum(series.map((s) => value(row, s.key)));
  const seriesTotal = (key: string) => sum(rows.map((row) => value(row, key)));
  const grand = sum(rows.map(periodTotal));
  switch (layout) {
    case 'ver2':
    case 'ver4': {
      const totals = layout === 'ver4';
      return {
        head: [labels.series, ...rows, ...(totals ? [labels.total] : [])],
        body: series.map((s) => [
          s.label,
          ...rows.map((row) => value(row, s.key)),
          ...(totals ? [seriesTotal(s.key)] : []),
        ]),
        foot: totals ? [labels.total, ...rows.map(periodTotal), grand] : undefined,
      };
    }
    case 'ver3':
      return {
        head: [data.rowHeading, ...series.map((s) => s.label), labels.total],
        body: rows.map((row) => [row, ...series.map((s) => value(row, s.key)), periodTotal(row)]),
        foot: [labels.total, ...series.map((s) => seriesTotal(s.key)), grand],
      };
    case 'ver5':
      return {
        head: [data.rowHeading, labels.series, labels.count],
        body: rows.flatMap((row) =>
          series.flatMap((s) => {
            const count = value(row, s.key);
            return count === 0 ? [] : [[row, s.label, count]];
          }),
        ),
      };
    case 'ver6':
      return {
        head: [data.rowHeading, ...series.map((s) => s.label), labels.total],
        body: rows.map((row) => {
          const whole = periodTotal(row);
          return [
            row,
            ...series.map((s) => `${value(row, s.key)} (${percent(value(row, s.key), whole)})`),
            whole,
          ];
        }),
      };
    default:
      return {
        head: [data.rowHeading, ...series.map((s) => s.label)],
        body: rows.map((row) => [row, ...series.map((s) => value(row, s.key))]),
      };
  }
}
