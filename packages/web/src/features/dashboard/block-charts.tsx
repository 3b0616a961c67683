import type { Block, TableLayout } from '@dossierbase/core';
import {
  Alert,
  Center,
  ColorSwatch,
  Flex,
  Group,
  List,
  SimpleGrid,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { ResponsiveBar } from '@nivo/bar';
import { ResponsiveFunnel } from '@nivo/funnel';
import { ResponsiveLine } from '@nivo/line';
import { ResponsivePie } from '@nivo/pie';
import { useTranslation } from 'react-i18next';
import { linkSeries, NO_VALUE_COLOR, optionSeries, periodSeries, weekdaySeries } from './chart-data';
import {
  barPropsOf,
  type ChartSettings,
  chartSettingsOf,
  chartSizeOf,
  colorsOf,
  FIXED_FORMAT,
  legendOf,
  linePropsOf,
  maxValueOf,
  readableOn,
  schemeColorAt,
  type Unsupported,
  unsupportedSettings,
  valueTicks,
} from './chart-settings';
import type {
  FunnelAnswer,
  LinkCounts,
  NewDossierAnswer,
  OptionCounts,
  PercentageAnswer,
  PeriodCounts,
} from './dashboard-api';
import { layOutTable, type SeriesTable } from './table-layouts';

export type { SeriesTable } from './table-layouts';

// The charts of the dashboard blocks, drawn with nivo in the block's colour scheme (spec document 1
// section 3). Each chart is one image to assistive technology (role img with a summary as its name)
// and has its figures beside it as a visually hidden table; the nivo drawing itself is hidden from
// them. Animation is off: a dashboard is drawn once, at once.

/** Text dark enough on white for the axes and legends (nivo's default is lighter than AA asks). */
const THEME = {
  text: { fill: '#212529', fontSize: 11 },
  axis: { ticks: { text: { fill: '#343a40' } } },
  grid: { line: { stroke: '#dee2e6' } },
  tooltip: { container: { fontSize: 12 } },
};
/** The rest of a percentage's pie. */
const REST_COLOR = '#e9ecef';

/** A chart as one image with a summary, and its figures for screen readers. */
function ChartFrame({
  label,
  format,
  size,
  figures,
  children,
}: {
  label: string;
  format: string;
  size: { height: number; minWidth?: number };
  figures?: React.ReactNode;
  children: React.ReactNode;
}) {
  const scrolls = size.minWidth !== undefined;
  return (
    <>
      <div
        role="img"
        aria-label={label}
        data-testid="block-chart"
        data-format={format}
        // only a chart wider than its block scrolls (reachable by keyboard, as a scrolling region must
        // be); any other is cut to its block, where a moment's larger drawing made a region that scrolled
        tabIndex={scrolls ? 0 : undefined}
        style={{ overflow: scrolls ? 'auto' : 'hidden', maxHeight: '100%' }}
      >
        <div
          aria-hidden="true"
          style={{ height: size.height, minWidth: size.minWidth, width: scrolls ? undefined : '100%' }}
        >
          {children}
        </div>
      </div>
      {figures && <VisuallyHidden>{figures}</VisuallyHidden>}
    </>
  );
}

/** Series labels kept unique (nivo's line and pie key their series by them). */
function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const times = (seen.get(label) ?? 0) + 1;
    seen.set(label, times);
    return times === 1 ? label : `${label} (${times})`;
  });
}

/** Counts per period and series as a bar, line or pie chart, or as a table in one of six layouts. */
export function SeriesChart({
  data,
  settings,
  height,
}: {
  data: SeriesTable;
  settings: ChartSettings;
  height: number;
}) {
  const { t } = useTranslation();
  if (settings.format === 'table') return <FiguresTable data={data} layout={settings.tableLayout} visible />;
  const labels = uniqueLabels(data.series.map((s) => s.label));
  const labelOf = (key: string | number) =>
    labels[data.series.findIndex((s) => s.key === key)] ?? String(key);
  const colors = colorsOf(settings, data.series);
  // one colour per series, the same in the chart and in its legend
  const palette = data.series.map((_, i) => schemeColorAt(colors, i));
  const colorOfKey = new Map(data.series.map((s, i) => [s.key, palette[i]]));
  const colorOfLabel = new Map(labels.map((label, i) => [label, palette[i]]));
  const legend = legendOf(settings);
  const legendRoom = legend.placement === 'bottom' ? 48 : 0;
  const size = chartSizeOf(settings, data.rows.length, data.series.length, height - legendRoom);
  const summary = t('charts.summary', {
    kind: t(`dashboard.chart.${settings.format}`),
    series: labels.join(', '),
    count: data.rows.length,
  });
  const keys = data.series.map((s) => s.key);
  const max = maxValueOf(data.rows, keys, data.value, settings.stacked);
  const ticks = valueTicks(max);
  const rotate = !settings.horizontal && data.rows.length > 6;
  const longestRow = Math.max(0, ...data.rows.map((row) => row.length));
  const margin = {
    top: 12,
    // a line's last point sits on the edge: room for half its label
    right: settings.format === 'line' && !rotate ? 8 + Math.min(longestRow, 12) * 4 : 16,
    bottom: rotate ? 24 + Math.min(longestRow, 12) * 5 : 36,
    left: settings.horizontal ? Math.min(120, 16 + longestRow * 6) : 40,
  };
  const gridValues = Array.isArray(ticks) ? ticks : undefined;
  let chart: React.ReactNode;
  if (settings.format === 'pie') {
    const slices = data.series
      .map((s, i) => ({
        id: labels[i],
        label: labels[i],
        value: data.rows.reduce((n, row) => n + data.value(row, s.key), 0),
      }))
      .filter((slice) => slice.value > 0);
    chart = (
      <ResponsivePie
        data={slices}
        margin={{ top: 12, bottom: 12, left: 12, right: 12 }}
        colors={(datum) => colorOfLabel.get(String(datum.id)) ?? NO_VALUE_COLOR}
        innerRadius={0}
        padAngle={0.5}
        enableArcLabels={settings.labels}
        enableArcLinkLabels={false}
        arcLabelsTextColor={(datum) => readableOn(datum.color)}
        theme={THEME}
        animate={false}
      />
    );
  } else if (settings.format === 'line') {
    chart = (
      <ResponsiveLine
        data={data.series.map((s, i) => ({
          id: labels[i],
          data: data.rows.map((row) => ({ x: row, y: data.value(row, s.key) })),
        }))}
        {...linePropsOf(settings)}
        xScale={{ type: 'point' }}
        margin={margin}
        colors={(serie) => colorOfLabel.get(String(serie.id)) ?? NO_VALUE_COLOR}
        pointSize={6}
        useMesh
        theme={THEME}
        animate={false}
        axisBottom={{ tickRotation: rotate ? -45 : 0 }}
        axisLeft={{ tickValues: ticks }}
        gridYValues={gridValues}
      />
    );
  } else {
    const keyed = data.rows.map((row) => ({
      period: row,
      ...Object.fromEntries(data.series.map((s) => [s.key, data.value(row, s.key)])),
    }));
    const valueAxis = { tickValues: ticks };
    const indexAxis = { tickRotation: rotate ? -45 : 0 };
    chart = (
      <ResponsiveBar
        data={keyed}
        keys={keys}
        indexBy="period"
        {...barPropsOf(settings)}
        margin={margin}
        padding={0.25}
        innerPadding={settings.stacked ? 0 : 1}
        colors={(datum) => colorOfKey.get(String(datum.id)) ?? NO_VALUE_COLOR}
        valueScale={{ type: 'linear' }}
        labelSkipWidth={14}
        labelSkipHeight={12}
        labelTextColor={(datum) => readableOn(datum.color)}
        tooltipLabel={(datum) => `${labelOf(datum.id)} · ${datum.indexValue}`}
        axisBottom={settings.horizontal ? valueAxis : indexAxis}
        axisLeft={settings.horizontal ? indexAxis : valueAxis}
        gridXValues={settings.horizontal ? gridValues : undefined}
        gridYValues={settings.horizontal ? undefined : gridValues}
        theme={THEME}
        animate={false}
      />
    );
  }
  const legendItems = labels.map((label, i) => ({ label, color: palette[i] }));
  return (
    <Flex
      direction={legend.placement === 'right' ? 'row' : 'column'}
      gap="xs"
      align={legend.placement === 'right' ? 'center' : 'stretch'}
      h="100%"
    >
      <div style={{ flex: 1, minWidth: 0 }}>
        <ChartFrame
          label={summary}
          format={settings.format}
          size={size}
          figures={<FiguresTable data={data} layout="ver1" />}
        >
          {chart}
        </ChartFrame>
      </div>
      <ChartLegend items={legendItems} placement={legend.placement} item={legend.item} />
    </Flex>
  );
}

/** The series' colours and names (HTML, so it wraps; the summary and the figures name them too). */
function ChartLegend({
  items,
  placement,
  item,
}: {
  items: { label: string; color: string }[];
  placement: 'right' | 'bottom';
  item: 'row' | 'row-reverse' | 'column' | 'column-reverse';
}) {
  return (
    <Flex
      aria-hidden="true"
      data-testid="block-legend"
      data-item={item}
      direction={placement === 'right' ? 'column' : 'row'}
      wrap="wrap"
      justify="center"
      gap={placement === 'right' ? 4 : 'sm'}
      maw={placement === 'right' ? 160 : undefined}
      style={{ flexShrink: 0 }}
    >
      {items.map((entry) => (
        <Flex
          key={entry.label}
          direction={item}
          align="center"
          justify={item === 'row-reverse' ? 'flex-end' : 'flex-start'}
          gap={4}
        >
          <ColorSwatch color={entry.color} size={10} radius={2} withShadow={false} />
          <Text size="xs" lh={1.2}>
            {entry.label}
          </Text>
        </Flex>
      ))}
    </Flex>
  );
}

/** The figures as a table in one of the layouts ver1 to ver6 (table-layouts.ts). */
export function FiguresTable({
  data,
  layout,
  visible,
}: {
  data: SeriesTable;
  layout: TableLayout;
  visible?: boolean;
}) {
  const { t } = useTranslation();
  const table = layOutTable(data, layout, {
    total: t('charts.total'),
    series: t('charts.series'),
    count: t('dashboard.count'),
  });
  const body = (
    <Table
      striped
      withTableBorder
      stickyHeader={visible}
      data-testid="block-figures"
      data-layout={layout}
      fz="sm"
    >
      <Table.Thead>
        <Table.Tr>
          {table.head.map((cell, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns in their fixed order, labels may repeat
            <Table.Th key={i}>{cell}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {table.body.map((row, r) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows in their fixed order
          <Table.Tr key={r}>
            {row.map((cell, i) =>
              i === 0 ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells in their fixed order
                <Table.Th key={i} scope="row" fw={500}>
                  {cell}
                </Table.Th>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells in their fixed order
                <Table.Td key={i}>{cell}</Table.Td>
              ),
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
      {table.foot && (
        <Table.Tfoot>
          <Table.Tr fw={700}>
            {table.foot.map((cell, i) =>
              i === 0 ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells in their fixed order
                <Table.Th key={i} scope="row">
                  {cell}
                </Table.Th>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells in their fixed order
                <Table.Td key={i}>{cell}</Table.Td>
              ),
            )}
          </Table.Tr>
        </Table.Tfoot>
      )}
    </Table>
  );
  return visible ? (
    <Table.ScrollContainer minWidth={200} data-testid="block-chart" data-format="table">
      {body}
    </Table.ScrollContainer>
  ) : (
    body
  );
}

/** Shares of a total, a donut each with the percentage in its middle. */
export function PercentagePies({ answer, settings }: { answer: PercentageAnswer; settings: ChartSettings }) {
  const { t } = useTranslation();
  const schemeColors = colorsOf(settings, []);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
      {answer.charts.map((chart, index) => {
        const title = chart.title || t('dashboard.part');
        const label = t('dashboard.percentage_of', {
          percentage: chart.percentage,
          part: chart.part,
          total: chart.total,
        });
        // the pie's own colour, unless the block chose a scheme
        const color = settings.scheme ? undefined : chart.color || undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the block's charts in their stored order, titles may repeat
          <Stack key={index} gap={4} align="center" data-testid="block-percentage">
            <ChartFrame label={`${title}: ${label}`} format="pie" size={{ height: 120 }}>
              <div style={{ width: 120, height: 120, margin: '0 auto', position: 'relative' }}>
                <ResponsivePie
                  data={[
                    { id: 'part', value: chart.part, color: color ?? '' },
                    { id: 'rest', value: Math.max(chart.total - chart.part, 0), color: REST_COLOR },
                  ]}
                  colors={
                    color
                      ? (datum) => datum.data.color
                      : // the scheme's colour for this pie, grey for the rest
                        (datum) => (datum.id === 'rest' ? REST_COLOR : schemeColorAt(schemeColors, index))
                  }
                  innerRadius={0.62}
                  enableArcLabels={false}
                  enableArcLinkLabels={false}
                  isInteractive={false}
                  animate={false}
                  layers={['arcs']}
                />
                <Center pos="absolute" inset={0}>
                  <Text fz={18} fw={700} c="dark.7">
                    {`${chart.percentage}%`}
                  </Text>
                </Center>
              </div>
            </ChartFrame>
            <Text size="sm" fw={500} ta="center">
              {title}
            </Text>
            <Text size="xs" c="dimmed" ta="center">
              {label}
            </Text>
          </Stack>
        );
      })}
    </SimpleGrid>
  );
}

/** The funnel of a list field's options in rank order, with each step's count beside it. */
export function FunnelChart({
  answer,
  settings,
  height,
}: {
  answer: FunnelAnswer;
  settings: ChartSettings;
  height: number;
}) {
  const { t } = useTranslation();
  const labels = uniqueLabels(answer.steps.map((s) => s.label));
  const colors = colorsOf(settings, answer.steps);
  const colorOf = (index: number) => schemeColorAt(colors, index);
  const summary = t('charts.funnel_summary', {
    steps: answer.steps.map((s, i) => `${labels[i]} ${s.count}`).join(', '),
  });
  return (
    <Group align="stretch" wrap="nowrap" gap="md" data-testid="block-funnel" h="100%">
      <div style={{ flex: 1, minWidth: 0 }}>
        <ChartFrame label={summary} format="funnel" size={{ height }}>
          <ResponsiveFunnel
            data={answer.steps.map((s, i) => ({ id: labels[i], label: labels[i], value: s.count }))}
            colors={answer.steps.map((_, i) => colorOf(i))}
            margin={{ top: 8, right: 8, bottom: 8, left: 8 }}
            spacing={2}
            shapeBlending={0.6}
            enableLabel={settings.labels}
            labelColor={(part) => readableOn(part.color)}
            borderWidth={0}
            beforeSeparatorLength={0}
            afterSeparatorLength={0}
            currentPartSizeExtension={4}
            theme={THEME}
            animate={false}
          />
        </ChartFrame>
      </div>
      <List listStyleType="none" spacing={4} size="sm" style={{ flexShrink: 0 }}>
        {answer.steps.map((step, i) => (
          <List.Item key={step.id}>
            <Group gap={6} wrap="nowrap">
              <ColorSwatch color={colorOf(i)} size={10} radius={2} withShadow={false} />
              <Text size="sm">{labels[i]}</Text>
              <Text size="sm" fw={600}>
                {step.count}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </Group>
  );
}

/** A chart whose settings cannot be drawn together: the spec's "Not supported settings". */
export function NotSupported({ reasons }: { reasons: readonly Unsupported[] }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t('dashboard.not_supported')} data-testid="block-not-supported">
      <List size="sm">
        {reasons.map((reason) => (
          <List.Item key={reason}>{t(`charts.unsupported.${reason}`)}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

export { CHART_BLOCK_TYPES } from './chart-settings';

/** A chart block's body: its data drawn as its settings ask, or why the settings cannot be drawn. */
export function ChartBlock({ block, data, height }: { block: Block; data: unknown; height: number }) {
  const { t } = useTranslation();
  const fixed = FIXED_FORMAT[block.type];
  const unsupported = unsupportedSettings(block.settings, fixed);
  if (unsupported.length > 0) return <NotSupported reasons={unsupported} />;
  const settings = chartSettingsOf(block.settings, fixed);
  const labels = {
    period: t('dashboard.period'),
    noPeriod: t('dashboard.no_period'),
    noValue: t('dashboard.no_value'),
    count: t('dashboard.count'),
  };
  switch (block.type) {
    case 'count_list_options':
      return (
        <SeriesChart data={optionSeries(data as OptionCounts, labels)} settings={settings} height={height} />
      );
    case 'count_link_options':
      return (
        <SeriesChart data={linkSeries(data as LinkCounts, labels)} settings={settings} height={height} />
      );
    case 'date_statistics':
      return (
        <SeriesChart data={periodSeries(data as PeriodCounts, labels)} settings={settings} height={height} />
      );
    case 'list_option_percentage_conditions':
      return <PercentagePies answer={data as PercentageAnswer} settings={settings} />;
    case 'funnel':
      return <FunnelChart answer={data as FunnelAnswer} settings={settings} height={height} />;
    case 'new_dossier_statistics': {
      const dayName = (day: number) =>
        new Date(Date.UTC(2024, 0, day)).toLocaleDateString(undefined, { weekday: 'short', timeZone: 'UTC' });
      const table = weekdaySeries(
        data as NewDossierAnswer,
        {
          lastweek: t('dashboard.last_week'),
          twoweeks: t('dashboard.two_weeks_ago'),
          threeweeks: t('dashboard.three_weeks_ago'),
        },
        t('dashboard.weekday'),
        dayName,
      );
      return <SeriesChart data={table} settings={settings} height={height} />;
    }
    default:
      return null;
  }
}
