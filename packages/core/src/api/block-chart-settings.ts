import { z } from 'zod';

// The chart settings of dashboard blocks (spec document 1 section 3 "Dashboard block" and section 9):
// the colour scheme (nivo's scheme names), the chart format and its options. The server refuses a
// value outside these lists; settings it does not know are kept as they are.

/** nivo's colour schemes (@nivo/colors colorSchemes): categorical, diverging and sequential. */
export const CHART_SCHEMES = [
  'nivo',
  'category10',
  'accent',
  'dark2',
  'paired',
  'pastel1',
  'pastel2',
  'set1',
  'set2',
  'set3',
  'tableau10',
  'brown_blueGreen',
  'purpleRed_green',
  'pink_yellowGreen',
  'purple_orange',
  'red_blue',
  'red_grey',
  'red_yellow_blue',
  'red_yellow_green',
  'spectral',
  'blues',
  'greens',
  'greys',
  'oranges',
  'purples',
  'reds',
  'blue_green',
  'blue_purple',
  'green_blue',
  'orange_red',
  'purple_blue_green',
  'purple_blue',
  'purple_red',
  'red_purple',
  'yellow_green_blue',
  'yellow_green',
  'yellow_orange_brown',
  'yellow_orange_red',
] as const;
export type ChartScheme = (typeof CHART_SCHEMES)[number];

export const CHART_FORMATS = ['line', 'bar', 'pie', 'table'] as const;
export type ChartFormat = (typeof CHART_FORMATS)[number];
export const GROUP_FORMATS = ['grouped', 'stacked'] as const;
export const CHART_LAYOUTS = ['vertical', 'horizontal'] as const;
export const TABLE_LAYOUTS = ['ver1', 'ver2', 'ver3', 'ver4', 'ver5', 'ver6'] as const;
export type TableLayout = (typeof TABLE_LAYOUTS)[number];
/** nivo's legend item directions. */
export const LEGEND_DIRECTIONS = [
  'left-to-right',
  'right-to-left',
  'top-to-bottom',
  'bottom-to-top',
] as const;
export type LegendDirection = (typeof LEGEND_DIRECTIONS)[number];
/** The yes/no chart options (stored as 'yes' or 'no'; older blocks may hold booleans). */
export const CHART_FLAGS = ['reverse_axis', 'show_y_scroll', 'enable_labels', 'enable_grid'] as const;
export type ChartFlag = (typeof CHART_FLAGS)[number];

const CHOOSE = 'Choose one of the listed values';
const flag = z
  .union([z.enum(['yes', 'no']), z.boolean()], { error: CHOOSE })
  .nullable()
  .optional();
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: CHOOSE }).nullable().optional();

/** A block's settings: the chart settings checked, every other key kept. */
export const blockSettingsSchema = z.looseObject({
  scheme: oneOf(CHART_SCHEMES),
  chart_format: oneOf(CHART_FORMATS),
  group_format: oneOf(GROUP_FORMATS),
  chart_layout: oneOf(CHART_LAYOUTS),
  table_layout: oneOf(TABLE_LAYOUTS),
  legend_direction: oneOf(LEGEND_DIRECTIONS),
  reverse_axis: flag,
  show_y_scroll: flag,
  enable_labels: flag,
  enable_grid: flag,
});

/** A yes/no chart option's value, or the fallback when it is not set. */
export const isYes = (value: unknown, fallback = false): boolean =>
  value === undefined || value === null || value === '' ? fallback : value === true || value === 'yes';
