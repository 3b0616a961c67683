import { ARCHIVED_FILTERS, type DisplayItem, type ListOption } from '@dossierbase/core';
import { Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getFieldComponents, itemLabel, itemSettings, type UserOption } from '../../../fields';
import { useFieldLocale } from '../../../fields/shared';
import type { SearchValue } from '../../../fields/types';
import { type Archived, columnType, searchParams } from './list-params';

export interface SearchFilters {
  search: Record<string, SearchValue>;
  archived: Archived;
}

interface SearchPanelProps {
  items: readonly DisplayItem[];
  applied: SearchFilters;
  optionsOf: (item: DisplayItem) => ListOption[] | undefined;
  users: readonly UserOption[];
  loadUsers: (search: string) => Promise<UserOption[]>;
  currentUserId?: number;
  onApply: (filters: SearchFilters) => void;
}

/**
 * The filter form: one search input per search / advanced-search display item (the field type's
 * SearchInput) and the archived choice. Nothing is applied until the form is submitted.
 */
export function SearchPanel({
  items,
  applied,
  optionsOf,
  users,
  loadUsers,
  currentUserId,
  onApply,
}: SearchPanelProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const [draft, setDraft] = useState<SearchFilters>(applied);
  const [resetCount, setResetCount] = useState(0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const search = Object.fromEntries(
      Object.entries(draft.search).filter(([, value]) => value !== null && value !== undefined),
    );
    onApply({ ...draft, search });
  };
  const reset = () => {
    const empty: SearchFilters = { search: {}, archived: 'none' };
    setDraft(empty);
    setResetCount((n) => n + 1); // remounts the inputs, some keep their own typed text
    onApply(empty);
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} data-testid="dossier-search-panel">
      <Stack gap="sm">
        {items.length > 0 ? (
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} key={resetCount}>
            {items.map((item) => {
              const type = columnType(item);
              const { SearchInput } = getFieldComponents(type);
              if (!type || !SearchInput) return null;
              const value = draft.search[item.id] ?? null;
              const unsupported = searchParams(item.id, type, value, currentUserId) === 'unsupported';
              return (
                <div key={item.id} data-testid={`dossier-search-${item.id}`} data-search-type={type}>
                  <SearchInput
                    item={item}
                    settings={itemSettings(item)}
                    label={itemLabel(item, locale)}
                    options={optionsOf(item)}
                    users={users}
                    loadUsers={loadUsers}
                    value={value}
                    onChange={(next) =>
                      setDraft((d) => {
                        const search = { ...d.search };
                        if (next) search[item.id] = next;
                        else delete search[item.id];
                        return { ...d, search };
                      })
                    }
                  />
                  {unsupported ? (
                    <Text size="xs" c="red" data-testid="dossier-search-unsupported">
                      {t('dossier_list.search_unsupported')}
                    </Text>
                  ) : null}
                </div>
              );
            })}
          </SimpleGrid>
        ) : null}
        <Group justify="space-between" align="flex-end">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('dossier_list.archived.label')}
            </Text>
            <SegmentedControl
              data-testid="dossier-search-archived"
              value={draft.archived}
              onChange={(archived) => setDraft((d) => ({ ...d, archived: archived as Archived }))}
              data={ARCHIVED_FILTERS.map((choice) => ({
                value: choice,
                label: t(`dossier_list.archived.${choice}`),
              }))}
            />
          </Stack>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconX size={16} />}
              onClick={reset}
              data-testid="dossier-search-reset"
            >
              {t('dossier_list.reset')}
            </Button>
            <Button type="submit" leftSection={<IconSearch size={16} />} data-testid="dossier-search-submit">
              {t('common.search')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
