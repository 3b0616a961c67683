import { BarChart, DonutChart, LineChart, PieChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import {
  ColorSwatch,
  Group,
  getThemeColor,
  Stack,
  Table,
  Text,
  useMantineTheme,
  VisuallyHidden,
} from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

// The charts of the dashboard blocks, drawn with @mantine/charts (recharts) as the user activity page
// is. A chart is hidden from screen readers and has its figures beside it as a table.

/** The colours of series without their own (Mantine's palette, dark enough for text on white). */
export const PALETTE = [
  'blue.7',
  'teal.8',
  'orange.8',
  'grape.7',
  'red.8',
  'cyan.8',
  'lime.9',
  'pink.7',
  'indigo.7',
];
export const colorAt = (color: string | null | undefined, index: number) =>
  color || PALETTE[index % PALETTE.length];

export interface SeriesTable {
  /** the first column's heading (Period) */
  rowHeading: string;
  rows: string[];
  series: { key: string; label: string; color: string }[];
  /** value of series key in row */
  value: (row: string, key: string) => number;
}

export type ChartFormat = 'bar' | 'line' | 'pie' | 'table';

/** Counts per period and series as a bar, line or pie chart, or a table. */
export function SeriesChart({
  data,
  format,
  stacked,
  horizontal,
  height,
}: {
  data: SeriesTable;
  format: ChartFormat;
  stacked?: boolean;
  horizontal?: boolean;
  height: number;
}) {
  const theme = useMantineTheme();
  if (format === 'table') return <FiguresTable data={data} />;
  const chartData = data.rows.map((row) => ({
    period: row,
    ...Object.fromEntries(data.series.map((s) => [s.key, data.value(row, s.key)])),
  }));
  const series = data.series.map((s) => ({ name: s.key, label: s.label, color: s.color }));
  let chart: React.ReactNode;
  if (format === 'pie') {
    const slices = data.series
      .map((s) => ({
        name: s.label,
        color: s.color,
        value: data.rows.reduce((n, r) => n + data.value(r, s.key), 0),
      }))
      .filter((slice) => slice.value > 0);
    chart = (
      <Group justify="center" wrap="nowrap" gap="md">
        <PieChart
          data={slices}
          size={Math.max(80, Math.min(height - 20, 220))}
          withTooltip
          withLabels
          labelsType="value"
          pieProps={{ rootTabIndex: -1 }}
          pieChartProps={{ accessibilityLayer: false }}
        />
        <Stack gap={2}>
          {slices.map((slice) => (
            <Group key={slice.name} gap={6} wrap="nowrap">
              <ColorSwatch
                color={getThemeColor(slice.color, theme)}
                size={10}
                radius={2}
                withShadow={false}
              />
              <Text size="xs">{slice.name}</Text>
            </Group>
          ))}
        </Stack>
      </Group>
    );
  } else if (format === 'line')
    chart = (
      <LineChart
        h={height}
        data={chartData}
        dataKey="period"
        series={series}
        withLegend
        lineChartProps={{ accessibilityLayer: false }}
        yAxisProps={{ allowDecimals: false }}
      />
    );
  else
    chart = (
      <BarChart
        h={height}
        data={chartData}
        dataKey="period"
        series={series}
        withLegend
        type={stacked ? 'stacked' : 'default'}
        orientation={horizontal ? 'vertical' : 'horizontal'}
        barChartProps={{ accessibilityLayer: false }}
        yAxisProps={{ allowDecimals: false }}
        xAxisProps={horizontal ? { allowDecimals: false } : undefined}
      />
    );
  return (
    <>
      <div aria-hidden="true" data-testid="block-chart" data-format={format}>
        {chart}
      </div>
      <VisuallyHidden>
        <FiguresTable data={data} />
      </VisuallyHidden>
    </>
  );
}

/** The figures as a table: a row per period, a column per series. */
export function FiguresTable({ data }: { data: SeriesTable }) {
  return (
    <Table striped withTableBorder data-testid="block-figures">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{data.rowHeading}</Table.Th>
          {data.series.map((s) => (
            <Table.Th key={s.key}>{s.label}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.rows.map((row) => (
          <Table.Tr key={row}>
            <Table.Td>{row}</Table.Td>
            {data.series.map((s) => (
              <Table.Td key={s.key}>{data.value(row, s.key)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A share of a total as a donut with the percentage in its middle. */
export function PercentageDonut({
  title,
  color,
  part,
  total,
  percentage,
  index,
}: {
  title: string;
  color: string | null;
  part: number;
  total: number;
  percentage: number;
  index: number;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Stack gap={4} align="center" data-testid="block-percentage">
      <div aria-hidden="true">
        <DonutChart
          size={110}
          thickness={18}
          chartLabel={`${percentage}%`}
          data={[
            { name: title || t('dashboard.part'), value: part, color: colorAt(color, index) },
            { name: t('dashboard.rest'), value: Math.max(total - part, 0), color: 'gray.3' },
          ]}
          withTooltip={false}
          pieProps={{ rootTabIndex: -1 }}
          pieChartProps={{ accessibilityLayer: false }}
        />
      </div>
      <Text size="sm" fw={500} id={id} ta="center">
        {title}
      </Text>
      <Text size="xs" c="dimmed" aria-labelledby={id}>
        {t('dashboard.percentage_of', { percentage, part, total })}
      </Text>
    </Stack>
  );
}
