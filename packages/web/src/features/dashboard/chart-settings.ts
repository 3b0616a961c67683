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

/** Where the legend goes: beside the chart for left/right items, under it for top/bottom ones. */
export function legendOf(chart: ChartSettings, longestLabel: number) {
  const beside = chart.legend === 'left-to-right' || chart.legend === 'right-to-left';
  const width = Math.min(160, Math.max(60, longestLabel * 7 + 24));
  return {
    margin: beside ? { right: width + 16 } : { bottom: 84 },
    legend: {
      anchor: beside ? ('right' as const) : ('bottom' as const),
      direction: beside ? ('column' as const) : ('row' as const),
      itemDirection: chart.legend,
      translateX: beside ? width + 16 : 0,
      translateY: beside ? 0 : 80,
      itemWidth: beside ? width : Math.max(60, Math.min(120, longestLabel * 7 + 24)),
      itemHeight: beside ? 18 : 36,
      itemsSpacing: 4,
      symbolSize: 12,
    },
  };
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
