import { Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerPager } from '../../app/pager';
import { useEnvironment } from '../environments/environment-store';
import { ColleagueCard } from './colleague-card';
import { useColleagues } from './people-api';

const SEARCH_DEBOUNCE_MS = 300;

// /colleagues: the environment's active members, found by name on the server, with their presence.
export function ColleaguesPage() {
  const { t } = useTranslation();
  const environment = useEnvironment()?.id ?? 0;
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(0);
  const colleagues = useColleagues(environment, page, name);
  const results = colleagues.data?.results ?? [];

  return (
    <Stack data-testid="colleagues-page">
      <Title order={1} size="h3">
        {t('colleagues.title')}
      </Title>
      <TextInput
        label={t('colleagues.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        maw={360}
        data-testid="colleagues-search"
      />
      {colleagues.isPending ? (
        <Loader />
      ) : results.length === 0 ? (
        <Text c="dimmed" data-testid="colleagues-empty">
          {t('colleagues.none')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="colleagues-list">
          {results.map((member) => (
            <ColleagueCard key={member.id} member={member} />
          ))}
        </SimpleGrid>
      )}
      <AnswerPager pager={colleagues.data?.pager} page={page} onPage={setPage} />
    </Stack>
  );
}
