import { LOG_TYPES } from '@dossierbase/core';
import { Group, Loader, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { AnswerPager } from '../../app/pager';
import { translateMessage } from '../../i18n/messages';
import { entityName, useEntities } from '../admin/admin-api';
import { AdminOnly } from '../admin/admin-guard';
import { useEnvironmentUsers } from '../dossiers/use-environment-users';
import { useEnvironment } from '../environments/environment-store';
import { type LogFilters, useLog } from './log-api';
import { LogEntries } from './log-entries';

// /logs: the environment's change log across dossiers, filtered by type, user, entity and day.

const PAGE_SIZE = 50;

export function LogsPage() {
  return (
    <AdminOnly>
      <EnvironmentLog />
    </AdminOnly>
  );
}

type Filter = 'type' | 'entity' | 'user' | 'from' | 'to';

function EnvironmentLog() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironment()?.id ?? 0;
  const [filters, setFilters] = useState<Partial<Record<Filter, string>>>({});
  const [page, setPage] = useState(0);
  const { data: entities } = useEntities();
  const { users } = useEnvironmentUsers();
  const query: LogFilters = {
    environment,
    page,
    limit: PAGE_SIZE,
    type: filters.type,
    entity: filters.entity ? Number(filters.entity) : undefined,
    user: filters.user ? Number(filters.user) : undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
  };
  const log = useLog(environment > 0 ? query : null);
  const set = (name: Filter) => (value: string | null) => {
    setFilters((current) => ({ ...current, [name]: value ?? undefined }));
    setPage(0);
  };
  const errors = isApiError(log.error) ? (log.error.fieldErrors ?? {}) : {};

  return (
    <Stack data-testid="logs-page">
      <Title order={1} size="h3">
        {t('log.title')}
      </Title>
      <Group align="flex-end">
        <Select
          label={t('log.type')}
          placeholder={t('log.any')}
          clearable
          data={LOG_TYPES.map((type) => ({ value: type, label: t(`log.types.${type}`) }))}
          value={filters.type ?? null}
          onChange={set('type')}
          data-testid="log-filter-type"
        />
        <Select
          label={t('log.entity')}
          placeholder={t('log.any')}
          clearable
          searchable
          data={(entities ?? []).map((entity) => ({
            value: String(entity.id),
            label: entityName(entity, locale),
          }))}
          value={filters.entity ?? null}
          onChange={set('entity')}
          data-testid="log-filter-entity"
        />
        <Select
          label={t('log.user')}
          placeholder={t('log.any')}
          clearable
          searchable
          data={users.map((user) => ({ value: String(user.id), label: user.name }))}
          value={filters.user ?? null}
          onChange={set('user')}
          data-testid="log-filter-user"
        />
        <TextInput
          type="date"
          label={t('log.from')}
          value={filters.from ?? ''}
          onChange={(event) => set('from')(event.currentTarget.value)}
          error={errors.from ? translateMessage(t, errors.from) : undefined}
          data-testid="log-filter-from"
        />
        <TextInput
          type="date"
          label={t('log.to')}
          value={filters.to ?? ''}
          onChange={(event) => set('to')(event.currentTarget.value)}
          error={errors.to ? translateMessage(t, errors.to) : undefined}
          data-testid="log-filter-to"
        />
      </Group>
      {log.isPending ? <Loader /> : <LogEntries entries={log.data?.results ?? []} withDossier />}
      <AnswerPager pager={log.data?.pager} page={page} onPage={setPage} />
    </Stack>
  );
}
