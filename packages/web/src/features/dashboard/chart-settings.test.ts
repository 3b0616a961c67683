import { CHART_SCHEMES } from '@dossierbase/core';
import { colorSchemeIds } from '@nivo/colors';
import { describe, expect, it } from 'vitest';
import {
  barPropsOf,
  chartSettingsOf,
  chartSizeOf,
  colorsOf,
  legendOf,
  linePropsOf,
  maxValueOf,
  readableOn,
  schemeColorAt,
  unsupportedSettings,
  valueTicks,
} from './chart-settings';

describe('chart settings', () => {
  it('offers exactly nivo’s colour schemes', () => {
    expect([...CHART_SCHEMES].sort()).toEqual([...colorSchemeIds].sort());
  });

  it('reads a block without settings as a grouped vertical bar chart with grid lines', () => {
    expect(chartSettingsOf({})).toEqual({
      format: 'bar',
      stacked: false,
      horizontal: false,
      tableLayout: 'ver1',
      reverse: false,
      scroll: false,
      labels: false,
      grid: true,
      legend: 'left-to-right',
      scheme: null,
    });
  });

  it('reads yes/no as strings or booleans, and a fixed format over the stored one', () => {
    const chart = chartSettingsOf(
      {
        chart_format: 'bar',
        group_format: 'stacked',
        chart_layout: 'horizontal',
        reverse_axis: 'yes',
        show_y_scroll: true,
        enable_labels: 'yes',
        enable_grid: 'no',
        legend_direction: 'bottom-to-top',
        scheme: 'set2',
        table_layout: 'ver4',
      },
      'line',
    );
    expect(chart).toMatchObject({
      format: 'line',
      stacked: true,
      horizontal: true,
      reverse: true,
      scroll: true,
      labels: true,
      grid: false,
      legend: 'bottom-to-top',
      scheme: 'set2',
      tableLayout: 'ver4',
    });
  });

  it('maps the settings to nivo’s bar props', () => {
    expect(barPropsOf(chartSettingsOf({ group_format: 'stacked', chart_layout: 'horizontal' }))).toEqual({
      groupMode: 'stacked',
      layout: 'horizontal',
      reverse: false,
      enableLabel: false,
      enableGridX: true,
      enableGridY: false,
    });
    expect(
      barPropsOf(chartSettingsOf({ reverse_axis: 'yes', enable_labels: 'yes', enable_grid: 'no' })),
    ).toEqual({
      groupMode: 'grouped',
      layout: 'vertical',
      reverse: true,
      enableLabel: true,
      enableGridX: false,
      enableGridY: false,
    });
  });

  it('maps the settings to nivo’s line props', () => {
    const props = linePropsOf(
      chartSettingsOf({ chart_format: 'line', group_format: 'stacked', reverse_axis: 'yes' }),
    );
    expect(props.yScale).toEqual({ type: 'linear', min: 0, max: 'auto', stacked: true, reverse: true });
    expect(props.enableArea).toBe(true);
    expect(props.enablePointLabel).toBe(false);
  });

  it('names the combinations that cannot be drawn', () => {
    expect(
      unsupportedSettings({ chart_format: 'bar', group_format: 'stacked', chart_layout: 'horizontal' }),
    ).toEqual([]);
    expect(unsupportedSettings({ chart_format: 'line', chart_layout: 'horizontal' })).toEqual([
      'line_horizontal',
    ]);
    expect(
      unsupportedSettings({
        chart_format: 'pie',
        group_format: 'stacked',
        chart_layout: 'horizontal',
        reverse_axis: 'yes',
      }),
    ).toEqual(['pie_stacked', 'pie_horizontal', 'pie_reverse']);
    expect(unsupportedSettings({ chart_format: 'table', table_layout: 'ver9' })).toEqual(['table_layout']);
    expect(unsupportedSettings({ chart_format: 'radar', scheme: 'rainbow' })).toEqual([
      'chart_format',
      'scheme',
    ]);
    // a percentage block is always pies: its stored chart format does not count
    expect(unsupportedSettings({ chart_format: 'radar' }, 'pie')).toEqual([]);
  });

  it('colours series by the chosen scheme, else by their own colours, else by nivo’s', () => {
    const series = [{ color: '#1c7ed6' }, { color: '#f08c00' }];
    expect(colorsOf(chartSettingsOf({ scheme: 'blues' }), series)).toEqual({ scheme: 'blues' });
    expect(colorsOf(chartSettingsOf({}), series)).toEqual(['#1c7ed6', '#f08c00']);
    expect(colorsOf(chartSettingsOf({}), [{ color: '#1c7ed6' }, { color: null }])).toEqual({
      scheme: 'nivo',
    });
  });

  it('picks a scheme’s colours as nivo’s ordinal scale does', () => {
    expect(schemeColorAt({ scheme: 'category10' }, 0)).toBe('#1f77b4');
    expect(schemeColorAt({ scheme: 'category10' }, 11)).toBe('#ff7f0e');
    expect(schemeColorAt({ scheme: 'nivo' }, 1)).toBe('#f47560');
    // sequential schemes in 9 steps, diverging in 11
    expect(schemeColorAt({ scheme: 'blues' }, 8)).toBe('#08306b');
    expect(schemeColorAt({ scheme: 'spectral' }, 10)).toBe('#5e4fa2');
    expect(schemeColorAt(['#000000', '#ffffff'], 3)).toBe('#ffffff');
  });

  it('writes labels dark on light fills and white on dark ones', () => {
    expect(readableOn('#b3e2cd')).toBe('#212529');
    expect(readableOn('#f1e15b')).toBe('#212529');
    expect(readableOn('#1b9e77')).toBe('#212529');
    expect(readableOn('#1c7ed6')).toBe('#ffffff');
    expect(readableOn('#08306b')).toBe('#ffffff');
  });

  it('puts the legend beside the chart or under it, its items in the asked direction', () => {
    expect(legendOf(chartSettingsOf({}))).toEqual({ placement: 'right', item: 'row' });
    expect(legendOf(chartSettingsOf({ legend_direction: 'right-to-left' }))).toEqual({
      placement: 'right',
      item: 'row-reverse',
    });
    expect(legendOf(chartSettingsOf({ legend_direction: 'top-to-bottom' }))).toEqual({
      placement: 'bottom',
      item: 'column',
    });
    expect(legendOf(chartSettingsOf({ legend_direction: 'bottom-to-top' }))).toEqual({
      placement: 'bottom',
      item: 'column-reverse',
    });
  });

  it('gives a value axis whole-number ticks', () => {
    expect(valueTicks(0)).toEqual([0]);
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(120)).toBe(5);
    const cells: Record<string, Record<string, number>> = { a: { x: 2, y: 3 }, b: { x: 4, y: 0 } };
    const value = (row: string, key: string) => cells[row]?.[key] ?? 0;
    expect(maxValueOf(['a', 'b'], ['x', 'y'], value, false)).toBe(4);
    expect(maxValueOf(['a', 'b'], ['x', 'y'], value, true)).toBe(5);
  });

  it('grows a scrolling chart with its figures, and fits the block otherwise', () => {
    expect(chartSizeOf(chartSettingsOf({}), 40, 3, 300)).toEqual({ height: 300 });
    expect(chartSizeOf(chartSettingsOf({ show_y_scroll: 'yes' }), 40, 3, 300)).toEqual({
      height: 300,
      minWidth: 40 * 3 * 28 + 140,
    });
    expect(
      chartSizeOf(
        chartSettingsOf({ show_y_scroll: 'yes', chart_layout: 'horizontal', group_format: 'stacked' }),
        40,
        3,
        300,
      ),
    ).toEqual({ height: 40 * 22 + 80 });
    // a few figures fit without growing
    expect(
      chartSizeOf(chartSettingsOf({ show_y_scroll: 'yes', chart_layout: 'horizontal' }), 2, 1, 300),
    ).toEqual({
      height: 300,
    });
  });
});
