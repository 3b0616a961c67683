import {
  type BlockType,
  CHART_FORMATS,
  CHART_LAYOUTS,
  CHART_SCHEMES,
  type ChartFlag,
  GROUP_FORMATS,
  isYes,
  LEGEND_DIRECTIONS,
  TABLE_LAYOUTS,
} from '@dossierbase/core';
import { Alert, Group, List, Select, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  CHART_BLOCK_TYPES,
  chartSettingsOf,
  FIXED_FORMAT as FIXED,
  schemeColorAt,
  unsupportedSettings,
} from './chart-settings';

// The chart settings of a block in the editor's Block type specific tab, and what the table layouts
// are in its Info tab. Which settings a type shows follows what its chart can draw.

type Settings = Record<string, unknown>;

/** The settings each chart type offers. */
const OFFERED: Partial<Record<BlockType, readonly string[]>> = {
  count_list_options: ['chart_format', 'group_format', 'chart_layout', 'table_layout', 'legend_direction'],
  count_link_options: ['chart_format', 'group_format', 'chart_layout', 'table_layout', 'legend_direction'],
  date_statistics: ['chart_format', 'chart_layout', 'table_layout', 'legend_direction'],
  new_dossier_statistics: ['legend_direction'],
};
const FLAGS: Partial<Record<BlockType, readonly ChartFlag[]>> = {
  count_list_options: ['reverse_axis', 'show_y_scroll', 'enable_labels', 'enable_grid'],
  count_link_options: ['reverse_axis', 'show_y_scroll', 'enable_labels', 'enable_grid'],
  date_statistics: ['reverse_axis', 'show_y_scroll', 'enable_labels', 'enable_grid'],
  new_dossier_statistics: ['reverse_axis', 'enable_labels', 'enable_grid'],
  funnel: ['enable_labels'],
};
/** A few colours of a scheme, beside its name. */
function SchemeSwatches({ scheme }: { scheme: (typeof CHART_SCHEMES)[number] }) {
  return (
    <Group gap={2} wrap="nowrap" aria-hidden="true">
      {[0, 1, 2, 3, 4].map((i) => (
        <span
          key={i}
          style={{ width: 10, height: 10, borderRadius: 2, background: schemeColorAt({ scheme }, i) }}
        />
      ))}
    </Group>
  );
}

export function ChartSettingsFields({
  type,
  settings,
  set,
  fieldError,
}: {
  type: BlockType;
  settings: Settings;
  set: (key: string, value: unknown) => void;
  fieldError: (key: string) => string | undefined;
}) {
  const { t } = useTranslation();
  if (!CHART_BLOCK_TYPES.includes(type)) return null;
  const offered = OFFERED[type] ?? [];
  const chart = chartSettingsOf(settings, FIXED[type]);
  const errorOf = (key: string) => fieldError(key) ?? fieldError(`settings.${key}`);
  const choice = (
    key: string,
    label: string,
    values: readonly string[],
    valuesKey: string,
    fallback: string,
  ) =>
    offered.includes(key) && (
      <Select
        label={label}
        value={typeof settings[key] === 'string' ? (settings[key] as string) : fallback}
        onChange={(value) => set(key, value ?? fallback)}
        data={values.map((value) => ({ value, label: t(`${valuesKey}.${value}`) }))}
        description={key === 'table_layout' ? t(`charts.table_layout_help.${chart.tableLayout}`) : undefined}
        allowDeselect={false}
        error={errorOf(key)}
        data-testid={`block-setting-${key}`}
      />
    );
  const unsupported = unsupportedSettings(settings, FIXED[type]);
  return (
    <Stack gap="sm" data-testid="block-chart-settings">
      <Select
        label={t('charts.editor.scheme')}
        value={chart.scheme}
        onChange={(value) => set('scheme', value)}
        data={CHART_SCHEMES.map((value) => ({ value, label: value }))}
        renderOption={({ option }) => (
          <Group justify="space-between" wrap="nowrap" w="100%">
            <span>{option.label}</span>
            <SchemeSwatches scheme={option.value as (typeof CHART_SCHEMES)[number]} />
          </Group>
        )}
        placeholder={t('charts.editor.scheme_default')}
        clearable
        searchable
        error={errorOf('scheme')}
        data-testid="block-setting-scheme"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {choice('chart_format', t('dashboard.editor.chart_format'), CHART_FORMATS, 'dashboard.chart', 'bar')}
        {choice(
          'group_format',
          t('dashboard.editor.group_format'),
          GROUP_FORMATS,
          'dashboard.group',
          'grouped',
        )}
        {choice(
          'chart_layout',
          t('dashboard.editor.chart_layout'),
          CHART_LAYOUTS,
          'dashboard.orientation',
          'vertical',
        )}
        {chart.format === 'table' &&
          choice(
            'table_layout',
            t('charts.editor.table_layout'),
            TABLE_LAYOUTS,
            'charts.table_layout',
            'ver1',
          )}
        {chart.format !== 'table' &&
          choice(
            'legend_direction',
            t('charts.editor.legend_direction'),
            LEGEND_DIRECTIONS,
            'charts.legend_direction',
            'left-to-right',
          )}
      </SimpleGrid>
      {chart.format !== 'table' && (FLAGS[type] ?? []).length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(FLAGS[type] ?? []).map((flag) => (
            <Switch
              key={flag}
              label={t(`charts.editor.${flag}`)}
              checked={isYes(settings[flag], flag === 'enable_grid')}
              onChange={(event) => set(flag, event.currentTarget.checked ? 'yes' : 'no')}
              error={errorOf(flag)}
              data-testid={`block-setting-${flag}`}
            />
          ))}
        </SimpleGrid>
      )}
      {unsupported.length > 0 && (
        <Alert color="orange" title={t('dashboard.not_supported')} data-testid="block-editor-unsupported">
          <List size="sm">
            {unsupported.map((reason) => (
              <List.Item key={reason}>{t(`charts.unsupported.${reason}`)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}

/** The Info tab's explanation of the chart settings: the colours, the six table layouts, what is not supported. */
export function ChartSettingsInfo({ type }: { type: BlockType }) {
  const { t } = useTranslation();
  if (!CHART_BLOCK_TYPES.includes(type)) return null;
  return (
    <Stack gap="xs" mt="md" data-testid="block-chart-info">
      <Title order={4}>{t('charts.editor.info_title')}</Title>
      <Text size="sm">{t('charts.editor.scheme_help')}</Text>
      {OFFERED[type]?.includes('table_layout') && (
        <Table data-testid="block-table-layouts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('charts.editor.table_layout')}</Table.Th>
              <Table.Th>{t('charts.editor.what_it_shows')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {TABLE_LAYOUTS.map((layout) => (
              <Table.Tr key={layout}>
                <Table.Th scope="row">{t(`charts.table_layout.${layout}`)}</Table.Th>
                <Table.Td>{t(`charts.table_layout_help.${layout}`)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm">{t('charts.editor.unsupported_help')}</Text>
    </Stack>
  );
}
