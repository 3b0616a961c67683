import { QUICK_SEARCH_DEBOUNCE_MS, QUICK_SEARCH_LIMIT, QUICK_SEARCH_TEXT_LENGTH } from '@dossierbase/core';
import { Combobox, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { dossierKeys, quickSearch } from '../../features/dossiers/dossier-api';
import { useEnvironment } from '../../features/environments/environment-store';
import { pickCulture } from '../../fields/helpers';
import { truncate } from '../format';
import { useLocale } from '../locale-provider';

// The top bar's quick search (spec doc 1 "Top bar and menu", doc 2 sections 7 to 9): the summaries of
// every entity the user may show, 200 ms after the last key, at most 10 hits. Arrows move through the
// hits, Enter opens one, Escape closes the list. A failure is silent: the list says No items found.

export function QuickSearch() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const environment = useEnvironment();
  const environmentId = environment?.id ?? 0;
  const [value, setValue] = useState('');
  const [search] = useDebouncedValue(value.trim(), QUICK_SEARCH_DEBOUNCE_MS);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const hits = useQuery({
    queryKey: dossierKeys.quickSearch(environmentId, search),
    queryFn: ({ signal }) =>
      quickSearch({ environment: environmentId, search, limit: QUICK_SEARCH_LIMIT }, signal).catch(() => []),
    enabled: environmentId > 0 && search !== '',
    staleTime: 10_000,
  });
  const entityName = (id: number) => {
    const entity = environment?.defdossiers?.find((e) => e.id === id);
    return (entity && pickCulture(entity.translations, locale ?? 'nl_NL')?.name_singular) || '';
  };
  const results = hits.data ?? [];

  return (
    <Combobox
      store={combobox}
      width={360}
      position="bottom-start"
      onOptionSubmit={(id) => {
        combobox.closeDropdown();
        setValue('');
        navigate(`/contentdossier/${id}`);
      }}
    >
      <Combobox.Target>
        <TextInput
          aria-label={t('quick_search.label')}
          placeholder={t('quick_search.placeholder')}
          leftSection={<IconSearch size={16} />}
          rightSection={hits.isFetching ? <Loader size={14} /> : null}
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            combobox.openDropdown();
            combobox.resetSelectedOption();
          }}
          onFocus={() => value.trim() && combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          w={{ base: 140, sm: 240 }}
          data-testid="quick-search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={search === '' || hits.isPending} data-testid="quick-search-results">
        {results.length === 0 ? (
          // outside the listbox: a listbox holds options only
          <Combobox.Empty data-testid="quick-search-empty">{t('quick_search.none')}</Combobox.Empty>
        ) : (
          <Combobox.Options aria-label={t('quick_search.results')}>
            {results.map((hit) => (
              <Combobox.Option value={String(hit.id)} key={hit.id} data-testid="quick-search-hit">
                <Text size="xs" c="dimmed">
                  {entityName(hit.def_dossier_id)}
                </Text>
                <Text size="sm">{truncate(hit.summary || `#${hit.id}`, QUICK_SEARCH_TEXT_LENGTH)}</Text>
              </Combobox.Option>
            ))}
          </Combobox.Options>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
