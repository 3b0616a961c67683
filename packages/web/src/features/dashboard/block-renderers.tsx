import type { Block } from '@dossierbase/core';
import { Anchor, Group, Paper, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ChartFormat, colorAt, PercentageDonut, SeriesChart, type SeriesTable } from './block-charts';
import type {
  ActiveAnswer,
  FunnelAnswer,
  GeomapAnswer,
  LinkCounts,
  ListAnswer,
  NewDossierAnswer,
  OnlineAnswer,
  OptionCounts,
  PercentageAnswer,
  PeriodCounts,
  SumAnswer,
} from './dashboard-api';

// What each block type draws from its data (the answers of /api/mypageblock/{id}/data). A block with
// nothing to show says No items found.

const GeomapView = lazy(() => import('./geomap-block'));

export function NoItems() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" size="sm" data-testid="block-empty">
      {t('dashboard.no_items')}
    </Text>
  );
}

const CHART_FORMATS: readonly ChartFormat[] = ['bar', 'line', 'pie', 'table'];
const chartFormatOf = (block: Block): ChartFormat =>
  CHART_FORMATS.includes(block.settings.chart_format as ChartFormat)
    ? (block.settings.chart_format as ChartFormat)
    : 'bar';

/** Whether the data has anything to draw. */
export function isEmpty(type: Block['type'], data: unknown): boolean {
  const d = data as Record<string, unknown[] | undefined> & { list?: ListAnswer['list'] };
  switch (type) {
    case 'count_list_options':
    case 'count_link_options':
    case 'date_statistics':
    case 'active_users':
      return (d.rows ?? []).length === 0;
    case 'list_option_percentage_conditions':
      return (d.charts ?? []).length === 0;
    case 'funnel':
      return (d.steps ?? []).length === 0;
    case 'dashboard':
      return (d.list?.results.dossiers ?? []).length === 0;
    case 'block_container':
      return (d.children ?? []).length === 0;
    default:
      return false;
  }
}

export function BlockBody({
  block,
  data,
  height,
  renderChild,
}: {
  block: Block;
  data: unknown;
  height: number;
  renderChild: (id: number) => React.ReactNode;
}) {
  const { t } = useTranslation();
  if (isEmpty(block.type, data)) return <NoItems />;
  const chartHeight = Math.max(height, 120);
  const period = t('dashboard.period');
  const noPeriod = t('dashboard.no_period');
  switch (block.type) {
    case 'count_list_options': {
      const answer = data as OptionCounts;
      const rows = [...new Set(answer.rows.map((r) => r.period ?? noPeriod))];
      const known = new Set(answer.options.map((o) => o.id));
      const series = answer.options.map((o, i) => ({
        key: `o${o.id}`,
        label: o.label,
        color: colorAt(o.color, i),
      }));
      if (answer.rows.some((r) => r.option === null || !known.has(r.option)))
        series.push({ key: 'none', label: t('dashboard.no_value'), color: 'gray.6' });
      const table: SeriesTable = {
        rowHeading: period,
        rows,
        series,
        value: (row, key) =>
          answer.rows
            .filter(
              (r) =>
                (r.period ?? noPeriod) === row &&
                (key === 'none' ? r.option === null || !known.has(r.option) : `o${r.option}` === key),
            )
            .reduce((n, r) => n + r.count, 0),
      };
      return (
        <SeriesChart
          data={table}
          format={chartFormatOf(block)}
          stacked={block.settings.group_format === 'stacked'}
          horizontal={block.settings.chart_layout === 'horizontal'}
          height={chartHeight}
        />
      );
    }
    case 'count_link_options': {
      const answer = data as LinkCounts;
      const rows = [...new Set(answer.rows.map((r) => r.period ?? noPeriod))];
      const dossiers = [...new Map(answer.rows.map((r) => [r.dossier, r.summary])).entries()];
      const table: SeriesTable = {
        rowHeading: period,
        rows,
        series: dossiers.map(([id, summary], i) => ({
          key: `d${id}`,
          label: summary,
          color: colorAt(null, i),
        })),
        value: (row, key) =>
          answer.rows
            .filter((r) => (r.period ?? noPeriod) === row && `d${r.dossier}` === key)
            .reduce((n, r) => n + r.count, 0),
      };
      return (
        <SeriesChart
          data={table}
          format={chartFormatOf(block)}
          stacked={block.settings.group_format === 'stacked'}
          horizontal={block.settings.chart_layout === 'horizontal'}
          height={chartHeight}
        />
      );
    }
    case 'date_statistics': {
      const answer = data as PeriodCounts;
      const table: SeriesTable = {
        rowHeading: period,
        rows: answer.rows.map((r) => r.period ?? noPeriod),
        series: [{ key: 'count', label: t('dashboard.count'), color: colorAt(null, 0) }],
        value: (row) => answer.rows.find((r) => (r.period ?? noPeriod) === row)?.count ?? 0,
      };
      return <SeriesChart data={table} format={chartFormatOf(block)} height={chartHeight} />;
    }
    case 'sum_fields': {
      const answer = data as SumAnswer;
      return (
        <Stack gap={0} justify="center" h="100%">
          <Text fz={32} fw={700} data-testid="block-sum">
            {answer.sum.toLocaleString()}
          </Text>
          <Text size="sm" c="dimmed">
            {t('dashboard.sum_of', { count: answer.count })}
          </Text>
        </Stack>
      );
    }
    case 'list_option_percentage_conditions':
      return (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          {(data as PercentageAnswer).charts.map((chart, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the block's charts in their stored order, titles may repeat
            <PercentageDonut key={`${chart.title}-${index}`} {...chart} index={index} />
          ))}
        </SimpleGrid>
      );
    case 'funnel': {
      const steps = (data as FunnelAnswer).steps;
      const most = Math.max(1, ...steps.map((s) => s.count));
      return (
        <Stack gap="xs" data-testid="block-funnel">
          {steps.map((step, index) => (
            <div key={step.id}>
              <Group justify="space-between" gap="xs">
                <Text size="sm">{step.label}</Text>
                <Text size="sm" fw={600}>
                  {step.count}
                </Text>
              </Group>
              <Progress
                value={(100 * step.count) / most}
                color={colorAt(step.color, index)}
                size="lg"
                aria-label={`${step.label}: ${step.count}`}
              />
            </div>
          ))}
        </Stack>
      );
    }
    case 'dashboard':
      // drawn with its tabs, templates and actions by DossierListBlock (dashboard-list-block.tsx)
      return null;
    case 'online_users': {
      const answer = data as OnlineAnswer;
      return (
        <Group grow data-testid="block-online">
          <Figure label={t('dashboard.online')} value={answer.online} color="teal.8" />
          <Figure label={t('dashboard.offline')} value={answer.offline} color="gray.7" />
        </Group>
      );
    }
    case 'active_users':
      return (
        <Table striped data-testid="block-active-users">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.user')}</Table.Th>
              <Table.Th>{t('dashboard.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data as ActiveAnswer).rows.map((row) => (
              <Table.Tr key={row.user_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/user/${row.user_id}`}>
                    {row.username}
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.total_count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      );
    case 'new_dossier_statistics': {
      const answer = data as NewDossierAnswer;
      const weeks = [
        { key: 'lastweek', label: t('dashboard.last_week') },
        { key: 'twoweeks', label: t('dashboard.two_weeks_ago') },
        { key: 'threeweeks', label: t('dashboard.three_weeks_ago') },
      ] as const;
      const days = [1, 2, 3, 4, 5, 6, 7];
      const dayName = (day: number) =>
        new Date(Date.UTC(2024, 0, day)).toLocaleDateString(undefined, { weekday: 'short', timeZone: 'UTC' });
      const table: SeriesTable = {
        rowHeading: t('dashboard.weekday'),
        rows: days.map(dayName),
        series: weeks.map((w, i) => ({ key: w.key, label: w.label, color: colorAt(null, i) })),
        value: (row, key) =>
          answer[key as (typeof weeks)[number]['key']].find((d) => dayName(d.created_at) === row)?.cd_count ??
          0,
      };
      return <SeriesChart data={table} format="line" height={chartHeight} />;
    }
    case 'geomap':
      return (
        <Suspense fallback={null}>
          <GeomapView answer={data as GeomapAnswer} height={chartHeight} />
        </Suspense>
      );
    case 'block_container':
      return <>{renderChild(-1)}</>;
    default:
      return <Text c="red">{t('dashboard.not_supported')}</Text>;
  }
}

function Figure({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} c={color}>
        {value}
      </Text>
    </Paper>
  );
}
