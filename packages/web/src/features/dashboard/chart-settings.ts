import {
  type Block,
  type BlockType,
  CHART_FORMATS,
  CHART_SCHEMES,
  type ChartFormat,
  type ChartScheme,
  isYes,
  LEGEND_DIRECTIONS,
  type LegendDirection,
  TABLE_LAYOUTS,
  type TableLayout,
} from '@dossierbase/core';
import { colorSchemes, isCategoricalColorScheme, isDivergingColorScheme } from '@nivo/colors';

// A block's chart settings (spec document 1 section 3) read into what the chart components draw, and
// the nivo props they give. Pure, so the mapping is unit tested (chart-settings.test.ts).

/** The block types drawn as charts (block-charts.tsx). */
export const CHART_BLOCK_TYPES: readonly BlockType[] = [
  'count_list_options',
  'count_link_options',
  'date_statistics',
  'list_option_percentage_conditions',
  'funnel',
  'new_dossier_statistics',
];

/**
 * The format a type always draws in, whatever its chart_format says: the percentages are pies, the
 * weekly statistics a line; the funnel is a funnel, checked as a pie (no axis, stacking or orientation).
 */
export const FIXED_FORMAT: Partial<Record<BlockType, 'pie' | 'line'>> = {
  list_option_percentage_conditions: 'pie',
  new_dossier_statistics: 'line',
  funnel: 'pie',
};

export interface ChartSettings {
  format: ChartFormat;
  stacked: boolean;
  horizontal: boolean;
  tableLayout: TableLayout;
  reverse: boolean;
  scroll: boolean;
  labels: boolean;
  grid: boolean;
  legend: LegendDirection;
  /** the chosen scheme, or null: then the list options' own colours, else nivo's */
  scheme: ChartScheme | null;
}

/** Why a block's settings cannot be drawn as asked (i18n keys under dashboard.unsupported). */
export type Unsupported =
  | 'line_horizontal'
  | 'pie_stacked'
  | 'pie_horizontal'
  | 'pie_reverse'
  | 'table_layout'
  | 'scheme'
  | 'chart_format';

const member = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

export function chartSettingsOf(settings: Block['settings'], fixedFormat?: ChartFormat): ChartSettings {
  return {
    format: fixedFormat ?? (member(CHART_FORMATS, settings.chart_format) ? settings.chart_format : 'bar'),
    stacked: settings.group_format === 'stacked',
    horizontal: settings.chart_layout === 'horizontal',
    tableLayout: member(TABLE_LAYOUTS, settings.table_layout) ? settings.table_layout : 'ver1',
    reverse: isYes(settings.reverse_axis),
    scroll: isYes(settings.show_y_scroll),
    labels: isYes(settings.enable_labels),
    grid: isYes(settings.enable_grid, true),
    legend: member(LEGEND_DIRECTIONS, settings.legend_direction)
      ? settings.legend_direction
      : 'left-to-right',
    scheme: member(CHART_SCHEMES, settings.scheme) ? settings.scheme : null,
  };
}

/**
 * The combinations a chart cannot draw (the spec's "Not supported settings"): a line is never
 * horizontal; a pie sums every period, so it has no stacking, orientation or axis; a table needs one
 * of the layouts ver1 to ver6; an unknown scheme or format is refused too (older or hand-made blocks).
 */
export function unsupportedSettings(settings: Block['settings'], fixedFormat?: ChartFormat): Unsupported[] {
  const out: Unsupported[] = [];
  const chart = chartSettingsOf(settings, fixedFormat);
  const set = (value: unknown) => value !== undefined && value !== null && value !== '';
  if (!fixedFormat && set(settings.chart_format) && !member(CHART_FORMATS, settings.chart_format))
    out.push('chart_format');
  if (set(settings.scheme) && chart.scheme === null) out.push('scheme');
  if (chart.format === 'line' && chart.horizontal) out.push('line_horizontal');
  if (chart.format === 'pie') {
    if (chart.stacked) out.push('pie_stacked');
    if (chart.horizontal) out.push('pie_horizontal');
    if (chart.reverse) out.push('pie_reverse');
  }
  if (chart.format === 'table' && set(settings.table_layout) && !member(TABLE_LAYOUTS, settings.table_layout))
    out.push('table_layout');
  return out;
}

/** The colours of the series: the scheme's when one is chosen, else each series' own, else nivo's. */
export function colorsOf(
  chart: ChartSettings,
  series: readonly { color?: string | null }[],
): { scheme: ChartScheme } | string[] {
  if (chart.scheme) return { scheme: chart.scheme };
  if (series.length > 0 && series.every((s) => s.color)) return series.map((s) => s.color as string);
  return { scheme: 'nivo' };
}

/** The index'th colour of a colour setting, as nivo's ordinal scale picks it (11 or 9 steps). */
export function schemeColorAt(colors: { scheme: ChartScheme } | string[], index: number): string {
  if (Array.isArray(colors)) return colors[index % colors.length];
  const { scheme } = colors;
  const palette: readonly string[] = isCategoricalColorScheme(scheme)
    ? colorSchemes[scheme]
    : isDivergingColorScheme(scheme)
      ? colorSchemes[scheme][11]
      : (colorSchemes[scheme] as unknown as readonly (readonly string[])[])[9];
  return palette[index % palette.length];
}

/** Dark or white text, whichever reads better on a fill (WCAG relative luminance). */
export function readableOn(fill: string): string {
  // the schemes' and the list options' colours are hex (#rgb or #rrggbb)
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(fill.trim())?.[1];
  if (!hex) return '#212529';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const channel = (at: number) => {
    const c = Number.parseInt(full.slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // above this, #212529 (luminance 0.016) contrasts more than white does
  return luminance > 0.213 ? '#212529' : '#ffffff';
}

/**
 * Where the legend goes and how its items read: left-to-right and right-to-left items stand beside
 * the chart (colour then name, or name then colour), top-to-bottom and bottom-to-top items under it
 * (colour above name, or name above colour). nivo's own legend does not wrap, so ours is HTML.
 */
export function legendOf(chart: ChartSettings): {
  placement: 'right' | 'bottom';
  item: 'row' | 'row-reverse' | 'column' | 'column-reverse';
} {
  switch (chart.legend) {
    case 'right-to-left':
      return { placement: 'right', item: 'row-reverse' };
    case 'top-to-bottom':
      return { placement: 'bottom', item: 'column' };
    case 'bottom-to-top':
      return { placement: 'bottom', item: 'column-reverse' };
    default:
      return { placement: 'right', item: 'row' };
  }
}

/** Whole-number ticks for a value axis up to max: each one while few, else left to nivo (5). */
export function valueTicks(max: number): number[] | number {
  if (!(max > 0)) return [0];
  if (max <= 8) return Array.from({ length: Math.ceil(max) + 1 }, (_, i) => i);
  return 5;
}

/** The highest value the value axis must reach: the largest cell, or the largest stack. */
export function maxValueOf(
  rows: readonly string[],
  keys: readonly string[],
  value: (row: string, key: string) => number,
  stacked: boolean,
): number {
  let max = 0;
  for (const row of rows) {
    const cells = keys.map((key) => value(row, key));
    max = Math.max(max, stacked ? cells.reduce((n, v) => n + v, 0) : Math.max(0, ...cells));
  }
  return max;
}

/** The bar chart's nivo props for the settings. */
export function barPropsOf(chart: ChartSettings) {
  return {
    groupMode: chart.stacked ? ('stacked' as const) : ('grouped' as const),
    layout: chart.horizontal ? ('horizontal' as const) : ('vertical' as const),
    reverse: chart.reverse,
    enableLabel: chart.labels,
    enableGridX: chart.grid && chart.horizontal,
    enableGridY: chart.grid && !chart.horizontal,
  };
}

/** The line chart's nivo props for the settings. */
export function linePropsOf(chart: ChartSettings) {
  return {
    yScale: {
      type: 'linear' as const,
      min: 0,
      max: 'auto' as const,
      stacked: chart.stacked,
      reverse: chart.reverse,
    },
    enablePointLabel: chart.labels,
    enableGridX: chart.grid,
    enableGridY: chart.grid,
    enableArea: chart.stacked,
  };
}

/**
 * The size the chart is drawn at: with the scroll setting it grows with its figures (taller for a
 * horizontal chart, wider for a vertical one) and its box scrolls; without it, it fits the block.
 */
export function chartSizeOf(
  chart: ChartSettings,
  rows: number,
  series: number,
  height: number,
): { height: number; minWidth?: number } {
  if (!chart.scroll || chart.format === 'pie') return { height };
  const bars = chart.stacked || chart.format === 'line' ? rows : rows * Math.max(series, 1);
  if (chart.horizontal) return { height: Math.max(height, bars * 22 + 80) };
  return { height, minWidth: bars * 28 + 140 };
}
