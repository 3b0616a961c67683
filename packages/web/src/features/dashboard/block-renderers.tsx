import type { Block } from '@dossierbase/core';
import { Anchor, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CHART_BLOCK_TYPES, ChartBlock } from './block-charts';
import type { ActiveAnswer, GeomapAnswer, ListAnswer, OnlineAnswer, SumAnswer } from './dashboard-api';

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
      return !((d.steps ?? []) as { count: number }[]).some((step) => step.count > 0);
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
  if (CHART_BLOCK_TYPES.includes(block.type))
    return <ChartBlock block={block} data={data} height={chartHeight} />;
  switch (block.type) {
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
