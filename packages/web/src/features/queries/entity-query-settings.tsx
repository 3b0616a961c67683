import { Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { changeAt, RemoveRowButton, SettingRows } from '../admin/settings/setting-rows';
import { useEntityQueries } from './queries-api';
import { QueryPicker } from './query-picker';

// The entity editor's Queries tab: the query its menu link opens with, and the queries listed under
// it in the menu (settings.query_settings, spec document 3 section 3).

export interface MenuQuery {
  queryUuid: string;
  name: string;
  rank: number;
}

export interface QuerySettings {
  default_query: number | null;
  menu_queries: MenuQuery[];
}

/** The stored query_settings, as the editor holds them. */
export function readQuerySettings(settings: Record<string, unknown> | undefined): QuerySettings {
  const stored = (settings?.query_settings ?? {}) as Partial<QuerySettings>;
  const menu = Array.isArray(stored.menu_queries) ? stored.menu_queries : [];
  return {
    default_query: typeof stored.default_query === 'number' ? stored.default_query : null,
    menu_queries: menu
      .filter((entry) => entry && typeof entry.queryUuid === 'string')
      .map((entry) => ({
        queryUuid: entry.queryUuid,
        name: String(entry.name ?? ''),
        rank: Number(entry.rank) || 0,
      })),
  };
}

/** The settings to store: menu entries without a query are left out, the others sorted by rank. */
export function writeQuerySettings(value: QuerySettings): QuerySettings {
  return {
    default_query: value.default_query,
    menu_queries: value.menu_queries
      .filter((entry) => entry.queryUuid)
      .map((entry) => ({ ...entry, name: entry.name.trim() }))
      .sort((a, b) => a.rank - b.rank),
  };
}

export function EntityQuerySettings({
  entityId,
  value,
  onChange,
}: {
  entityId: number;
  value: QuerySettings;
  onChange: (next: QuerySettings) => void;
}) {
  const { t } = useTranslation();
  const { data: queries, isSuccess } = useEntityQueries(entityId);
  const menu = value.menu_queries;
  const setMenu = (menu_queries: MenuQuery[]) => onChange({ ...value, menu_queries });
  const nextRank = menu.reduce((max, entry) => Math.max(max, entry.rank + 1), 0);
  return (
    <Stack data-testid="entity-query-settings">
      {isSuccess && queries.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="entity-no-queries">
          {t('admin.entity_edit.no_queries')}
        </Text>
      ) : null}
      <QueryPicker
        entity={entityId}
        label={t('admin.entity_edit.default_query')}
        description={t('admin.entity_edit.default_query_hint')}
        value={value.default_query}
        onChange={(next) => onChange({ ...value, default_query: typeof next === 'number' ? next : null })}
        w={{ base: '100%', sm: 360 }}
        data-testid="entity-default-query"
      />
      <SettingRows
        label={t('admin.entity_edit.menu_queries')}
        testId="entity-menu-queries"
        addLabel={t('admin.entity_edit.add_menu_query')}
        onAdd={() => setMenu([...menu, { queryUuid: '', name: '', rank: nextRank }])}
      >
        <Text size="xs" c="dimmed">
          {t('admin.entity_edit.menu_queries_hint')}
        </Text>
        {menu.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are added and removed, never reordered in place
          <Group key={index} gap="xs" align="flex-end" wrap="wrap" data-testid="entity-menu-query">
            <QueryPicker
              entity={entityId}
              by="uuid"
              label={t('admin.entity_edit.menu_query')}
              value={entry.queryUuid}
              onChange={(next) =>
                setMenu(changeAt(menu, index, { queryUuid: typeof next === 'string' ? next : '' }))
              }
              w={240}
              data-testid="entity-menu-query-query"
            />
            <TextInput
              label={t('admin.entity_edit.menu_query_name')}
              value={entry.name}
              onChange={(event) => setMenu(changeAt(menu, index, { name: event.currentTarget.value }))}
              maxLength={255}
              w={220}
              data-testid="entity-menu-query-name"
            />
            <NumberInput
              label={t('admin.rank')}
              min={0}
              allowDecimal={false}
              value={entry.rank}
              onChange={(next) =>
                setMenu(changeAt(menu, index, { rank: typeof next === 'number' ? next : 0 }))
              }
              w={100}
              data-testid="entity-menu-query-rank"
            />
            <RemoveRowButton mb={4} onClick={() => setMenu(menu.filter((_, i) => i !== index))} />
          </Group>
        ))}
      </SettingRows>
    </Stack>
  );
}
