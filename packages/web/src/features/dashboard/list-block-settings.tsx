import {
  CARD_TEMPLATES,
  CONTAINER_LAYOUTS,
  LIST_BLOCK_LAYOUTS,
  REFRESH_RATES,
  TEMPLATE_SLOTS,
} from '@dossierbase/core';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { itemLabel } from '../../fields';
import { useFieldLocale } from '../../fields/shared';
import { useCustomViews, useDisplayItems } from '../admin/admin-api';
import { viewLabel } from '../admin/labels';

// The block editor's settings of a dossier list block (layout, template and its option slots,
// carousel, add button, editing in place, tabs of saved queries), of a container (its layout) and
// every block's refresh rate (spec document 1 sections 3 and 4).

type Settings = Record<string, unknown>;
interface SettingsProps {
  settings: Settings;
  set: (key: string, value: unknown) => void;
  fieldError: (key: string) => string | undefined;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

export function RefreshRateSetting({ settings, set, fieldError }: SettingsProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('dashboard_page.refresh_rate')}
      value={text(settings.refresh_rate) || 'thirty_minute'}
      onChange={(value) => set('refresh_rate', value)}
      data={Object.keys(REFRESH_RATES).map((rate) => ({
        value: rate,
        label: t(`dashboard_page.refresh.${rate}`),
      }))}
      allowDeselect={false}
      error={fieldError('refresh_rate')}
      data-testid="block-setting-refresh_rate"
    />
  );
}

export function ContainerSettings({ settings, set, fieldError }: SettingsProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('dashboard.editor.container_layout')}
      value={text(settings.layout) || 'horizontal'}
      onChange={(value) => set('layout', value)}
      data={CONTAINER_LAYOUTS.map((layout) => ({
        value: layout,
        label: t(`dashboard_page.container.${layout}`),
      }))}
      allowDeselect={false}
      error={fieldError('layout')}
      data-testid="block-setting-layout"
    />
  );
}

export function ListBlockSettings({
  settings,
  set,
  fieldError,
  entity,
  queries,
}: SettingsProps & { entity: number; queries: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  // the columns and card fields are the items of the block's view: the list or a custom view
  const view = text(settings.view_name) || 'list';
  const customViews = useCustomViews(entity).data ?? [];
  const views = [
    { value: 'list', label: viewLabel(t, 'list') },
    ...customViews.map((custom) => ({ value: custom.view_name, label: custom.view_name })),
  ];
  const columns = useDisplayItems(entity, view);
  const layout = text(settings.layout) || 'table';
  const template = layout === 'calendar' ? 'calendar' : text(settings.template) || 'cardDefault';
  const slots = layout === 'table' ? [] : (TEMPLATE_SLOTS[template] ?? []);
  const options = (settings.templateOptions ?? {}) as Record<string, unknown>;
  const tabs = Array.isArray(settings.tab_queries)
    ? (settings.tab_queries as { query?: unknown; title?: unknown }[])
    : [];
  const setTabs = (next: { query?: unknown; title?: unknown }[]) => set('tab_queries', next);
  const columnOptions = (columns.data ?? [])
    .filter((item) => item.view === view)
    .map((item) => ({ value: String(item.id), label: itemLabel(item, locale) || `#${item.id}` }));
  const flag = (key: string, label: string) => (
    <Switch
      label={label}
      checked={settings[key] === true}
      onChange={(event) => set(key, event.currentTarget.checked)}
      data-testid={`block-setting-${key}`}
    />
  );

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('dashboard_page.view_name')}
          value={view}
          onChange={(value) => {
            set('view_name', value);
            // the slots name items of the view
            set('templateOptions', {});
          }}
          data={
            views.some((option) => option.value === view) ? views : [...views, { value: view, label: view }]
          }
          allowDeselect={false}
          error={fieldError('view_name')}
          data-testid="block-setting-view_name"
        />
        <Select
          label={t('dashboard.editor.list_layout')}
          value={layout}
          onChange={(value) => {
            set('layout', value);
            set('template', value === 'calendar' ? 'calendar' : value === 'cards' ? 'cardDefault' : null);
            set('templateOptions', {});
          }}
          data={LIST_BLOCK_LAYOUTS.map((value) => ({ value, label: t(`dashboard_page.layout.${value}`) }))}
          allowDeselect={false}
          error={fieldError('layout')}
          data-testid="block-setting-layout"
        />
        {layout === 'cards' && (
          <Select
            label={t('dashboard_page.template')}
            value={template}
            onChange={(value) => {
              set('template', value);
              set('templateOptions', {});
            }}
            data={CARD_TEMPLATES.map((value) => ({ value, label: t(`dashboard_page.templates.${value}`) }))}
            allowDeselect={false}
            error={fieldError('template')}
            data-testid="block-setting-template"
          />
        )}
      </SimpleGrid>
      {slots.length > 0 && (
        <Paper withBorder p="xs">
          <Text size="sm" fw={500} mb={4}>
            {t('dashboard_page.slots_help')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {slots.map((slot) => (
              <Select
                key={slot}
                label={t(`dashboard_page.slot.${slot}`)}
                value={text(options[slot]) || null}
                onChange={(value) =>
                  set('templateOptions', { ...options, [slot]: value ? Number(value) : null })
                }
                data={columnOptions}
                clearable
                placeholder={columnOptions.length ? undefined : t('dashboard_page.no_list_columns')}
                data-testid={`block-slot-${slot}`}
              />
            ))}
          </SimpleGrid>
        </Paper>
      )}
      {layout === 'cards' && template !== 'cardTimeline' && flag('carousel', t('dashboard_page.carousel'))}
      {flag('show_add', t('dashboard_page.show_add'))}
      {layout === 'table' && flag('inline_edit', t('dashboard_page.inline_edit'))}
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t('dashboard_page.tab_queries')}
        </Text>
        {tabs.map((tab, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the tabs in their stored order; a query may repeat
          <Group key={index} align="flex-end" wrap="nowrap" data-testid="block-tab-query">
            <Select
              label={t('dashboard.editor.query')}
              value={text(tab.query) || null}
              onChange={(value) =>
                setTabs(
                  tabs.map((row, i) => (i === index ? { ...row, query: value ? Number(value) : null } : row)),
                )
              }
              data={queries}
              style={{ flex: 1 }}
              data-testid="block-tab-query-query"
            />
            <TextInput
              label={t('dashboard_page.tab_title')}
              value={text(tab.title)}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setTabs(tabs.map((row, i) => (i === index ? { ...row, title: value } : row)));
              }}
              style={{ flex: 1 }}
              data-testid="block-tab-query-title"
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('dashboard_page.remove_tab')}
              onClick={() => setTabs(tabs.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          w="fit-content"
          onClick={() => setTabs([...tabs, { query: null, title: '' }])}
          disabled={entity === 0}
          data-testid="block-add-tab-query"
        >
          {t('dashboard_page.add_tab')}
        </Button>
      </Stack>
    </Stack>
  );
}
