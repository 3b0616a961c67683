import type { DisplayItem } from '@dossierbase/core';
import { MultiSelect, Paper, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../app/locale-provider';
import { useCustomViews, useDataFields, useDisplayItems, useLinks } from './admin-api';
import { itemLabel } from './designer/item-label';
import { dataFieldLabel, viewLabel } from './labels';
import {
  ADDRESS_ITEM_KEYS,
  type AddressLookup,
  fieldsFor,
  type Source,
  VIEW_SETTING_GROUPS,
} from './view-settings';

type Option = { value: string; label: string };

export function ViewSettingsPanel({
  entityId,
  values,
  onChange,
}: {
  entityId: number;
  values: Record<string, string | null>;
  onChange: (key: string, value: string | null) => void;
}) {
  const { t } = useTranslation();
  const { data: fields = [] } = useDataFields(entityId);
  const { data: links = [] } = useLinks(entityId);
  const { data: views = [] } = useCustomViews(entityId);

  const options = (source: Source): Option[] => {
    if (source === 'calendar_default')
      return ['week', 'month'].map((value) => ({ value, label: t(`admin.view_settings.${value}`) }));
    if (source === 'link') return links.map((link) => ({ value: String(link.id), label: link.name }));
    if (source === 'view') return views.map((view) => ({ value: view.view_name, label: view.view_name }));
    return fieldsFor(source, fields).map((field) => ({
      value: String(field.id),
      label: dataFieldLabel(t, field),
    }));
  };

  return (
    <Stack data-testid="entity-view-settings">
      {VIEW_SETTING_GROUPS.map(({ group, settings }) => (
        <Paper key={group} withBorder p="sm">
          <Title order={5} mb="xs">
            {t(`admin.view_settings.${group}`)}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {settings.map(([key, source]) => {
              const data = options(source);
              const value = values[key] ?? null;
              // A stored value that is no longer offered still shows, so saving keeps it visible.
              const shown =
                value && !data.some((option) => option.value === value)
                  ? [...data, { value, label: `#${value}` }]
                  : data;
              return (
                <Select
                  key={key}
                  label={t(`admin.view_settings.${key}`)}
                  data={shown}
                  value={value}
                  onChange={(next) => onChange(key, next)}
                  clearable
                  searchable
                  data-testid={`entity-setting-${key}`}
                />
              );
            })}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}

function useItemOptions(entityId: number, editOnly: boolean): Option[] {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: items = [] } = useDisplayItems(entityId);
  return items
    .filter((item: DisplayItem) => !editOnly || item.view === 'edit' || item.view === 'show/edit')
    .map((item) => ({
      value: String(item.id),
      label: `${itemLabel(item, locale)} (${viewLabel(t, item.view)})`,
    }));
}

export function AddressLookupPanel({
  entityId,
  value,
  onChange,
}: {
  entityId: number;
  value: AddressLookup;
  onChange: (value: AddressLookup) => void;
}) {
  const { t } = useTranslation();
  const options = useItemOptions(entityId, true);
  return (
    <Stack data-testid="entity-address-lookup-panel">
      <Switch
        label={t('admin.address_lookup.enabled')}
        checked={value.address_lookup}
        onChange={(event) => onChange({ ...value, address_lookup: event.currentTarget.checked })}
        data-testid="entity-address-lookup"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {ADDRESS_ITEM_KEYS.map((key) => (
          <Select
            key={key}
            label={t(`admin.address_lookup.${key}`)}
            data={options}
            value={value.items[key] ?? null}
            onChange={(next) => onChange({ ...value, items: { ...value.items, [key]: next } })}
            clearable
            searchable
            disabled={!value.address_lookup}
            data-testid={`entity-address-${key}`}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export function HiddenFieldsSelect({
  entityId,
  value,
  onChange,
}: {
  entityId: number;
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const { t } = useTranslation();
  const options = useItemOptions(entityId, false);
  return (
    <Stack gap={4}>
      <MultiSelect
        label={t('admin.entity_edit.hiddenfields')}
        data={options}
        value={value.filter((id) => options.some((option) => option.value === id))}
        onChange={onChange}
        searchable
        clearable
        data-testid="entity-hiddenfields"
      />
      <Text size="xs" c="dimmed">
        {t('admin.entity_edit.hiddenfields_help')}
      </Text>
    </Stack>
  );
}
