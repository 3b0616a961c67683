import { type Aggregation, NO_ENTITY_ABILITIES, PAGE_SIZES } from '@dossierbase/core';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconFilter, IconPlus, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { useLocale } from '../../../app/locale-provider';
import { Pager } from '../../../app/pager';
import { focusMain } from '../../../app/shell/skip-link';
import { pickCulture } from '../../../fields/helpers';
import { useTokenData } from '../../auth/session';
import { isEnvironmentAdmin, useEnvironment } from '../../environments/environment-store';
import { queryName, useDossierQuery } from '../../queries/queries-api';
import { ExportButton } from '../export/export-dialog';
import { storedUserIds } from '../known-users';
import { QuickEditModal, QuickShowModal } from '../quick-modals';
import { useEnvironmentUsers } from '../use-environment-users';
import { BulkBar, type BulkRow } from './bulk-bar';
import { DossierTable } from './dossier-table';
import {
  dossierListKeys,
  useDossierList,
  useEntityAbilities,
  useItemOptions,
  useSearchItems,
  useSubscriptions,
  useTabsAllowed,
} from './list-api';
import { cycleSort, type ListState, listQueryString, readListState, writeListState } from './list-params';
import { MergeModal } from './merge-modal';
import { readPageSize, savePageSize } from './page-size';
import { type SearchFilters, SearchPanel } from './search-panel';

/** The list call's query string with the saved query it applies, if any. */
function withSavedQuery(query: string, savedQueryId: number): string {
  return savedQueryId ? `${query}&dossierQuery=${savedQueryId}` : query;
}

/** /defdossier/{id}: the dossiers of one entity (spec doc 2 section 2, "Dossier list"). */
export function DossierListPage() {
  const entityId = Number(useParams().id);
  // a fresh page (and fresh local state) per entity
  return <DossierList key={entityId} entityId={entityId} />;
}

function DossierList({ entityId }: { entityId: number }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const environment = useEnvironment();
  const token = useTokenData();
  const admin = isEnvironmentAdmin(environment);
  const [address, setAddress] = useSearchParams();
  const state = readListState(address);

  const [pageSize, setPageSize] = useState(() => readPageSize(entityId));
  const [filtersOpen, setFiltersOpen] = useState(() => Object.keys(state.search).length > 0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [merging, setMerging] = useState<[number, number] | null>(null);
  const [quick, setQuick] = useState<{ mode: 'show' | 'edit'; id: number } | null>(null);

  const entity = environment?.defdossiers?.find((e) => e.id === entityId);
  const title = entity ? pickCulture(entity.translations, locale ?? 'nl_NL')?.name_plural : undefined;
  const abilities = useEntityAbilities(entityId).data ?? NO_ENTITY_ABILITIES;
  const search = useSearchItems(entityId);
  // a saved query (the menu's ?dossierQuery=), ANDed by the server with the list's own filters
  const savedQueryId = Number(address.get('dossierQuery')) || 0;
  const savedQuery = useDossierQuery(savedQueryId);
  const query = withSavedQuery(
    listQueryString(entityId, state, pageSize, search.items, token?.user_id),
    savedQueryId,
  );
  const list = useDossierList(entityId, query);
  const data = list.data;
  const ids = useMemo(() => data?.results.dossiers.map((d) => d.id) ?? [], [data]);
  const tabs = useTabsAllowed(entityId, ids);
  const subscriptions = useSubscriptions(environment?.id, ids);
  const shownUserIds = useMemo(
    () =>
      data
        ? storedUserIds(
            data.results.items,
            Object.values(data.results.contents as Record<string, Record<string, unknown>>),
          )
        : [],
    [data],
  );
  const members = useEnvironmentUsers(shownUserIds);
  const optionsOf = useItemOptions([...(data?.results.items ?? []), ...search.items], admin);

  // A new page, sort or filter starts without a selection.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the list call changes
  useEffect(() => setSelected(new Set()), [query]);
  // After deletes the page may be past the end: go to the last page.
  const pages = data?.pager.pages ?? 0;
  useEffect(() => {
    if (pages > 0 && state.page > pages) update({ page: pages }, true);
  });

  function update(patch: Partial<ListState>, replace = false) {
    setAddress(writeListState({ ...state, ...patch }, address), { replace });
  }
  const clearSavedQuery = () => {
    const next = new URLSearchParams(address);
    next.delete('dossierQuery');
    setAddress(writeListState({ ...state, page: 1 }, next));
  };
  const applyFilters = (filters: SearchFilters) => update({ ...filters, page: 1 });
  const changePageSize = (value: string | null) => {
    const size = Number(value);
    savePageSize(entityId, size);
    setPageSize(readPageSize(entityId));
    update({ page: 1 });
  };
  const aggregate = (itemId: number, value: Aggregation | null) => {
    const aggregates = { ...state.aggregates };
    if (value) aggregates[itemId] = value;
    else delete aggregates[itemId];
    update({ aggregates }, true);
  };
  const open = (id: number, newWindow: boolean) => {
    const href = `/contentdossier/${id}`;
    if (newWindow) window.open(href, '_blank');
    else navigate(href);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: dossierListKeys.all });

  // A selected row that a refresh took away (deleted here, or by someone else, heard in real time)
  // stays selected as it was last seen, so the bulk bar and its report stay until closed.
  // (only the selected ones are kept from earlier lists, so the map never outgrows the page)
  const lastSeen = useRef(new Map<number, BulkRow>());
  const seen = new Map<number, BulkRow>();
  for (const id of selected) {
    const row = lastSeen.current.get(id);
    if (row) seen.set(id, row);
  }
  for (const d of data?.results.dossiers ?? [])
    seen.set(d.id, {
      id: d.id,
      archived: d.archived,
      summary: d.summary,
      subscribed: subscriptions.data?.has(d.id) ?? false,
    });
  lastSeen.current = seen;
  const listed = (data?.results.dossiers ?? []).map((d) => d.id);
  const selectedRows = [
    ...listed.filter((id) => selected.has(id)),
    ...[...selected].filter((id) => !listed.includes(id)),
  ].flatMap((id) => seen.get(id) ?? []);

  if (list.isError && !data) {
    const forbidden = isApiError(list.error, 403) || isApiError(list.error, 401);
    return (
      <Alert color="red" data-testid={forbidden ? 'dossier-list-forbidden' : 'dossier-list-error'}>
        {forbidden
          ? t('403_general_message')
          : isApiError(list.error, 404)
            ? t('not_found.title')
            : errorMessage(list.error, t)}
      </Alert>
    );
  }

  return (
    <Stack data-testid="dossier-list-page" data-entity-id={entityId}>
      <Group justify="space-between">
        <Title order={1} size="h2" data-testid="dossier-list-title">
          {title ?? t('dossier_list.title_fallback', { id: entityId })}
        </Title>
        <Group gap="xs">
          <Tooltip label={t('dossier_list.filter')}>
            <ActionIcon
              size="lg"
              variant={filtersOpen ? 'filled' : 'default'}
              aria-label={t('dossier_list.filter')}
              onClick={() => setFiltersOpen((o) => !o)}
              data-testid="dossier-filter-toggle"
            >
              <IconFilter size={18} />
            </ActionIcon>
          </Tooltip>
          {selectedRows.length === 0 ? (
            <ExportButton
              entityId={entityId}
              abilities={abilities}
              target={{ type: 'list', query }}
              testId="dossier-list-export"
            />
          ) : null}
          {abilities.canCreate ? (
            <Button
              component={Link}
              to={`/contentdossier/create/${entityId}`}
              leftSection={<IconPlus size={16} />}
              data-testid="dossier-add"
            >
              {t('dossier_list.add')}
            </Button>
          ) : null}
        </Group>
      </Group>

      {savedQueryId ? (
        <Group gap="xs" data-testid="dossier-list-query" data-query-id={savedQueryId}>
          <Badge
            size="lg"
            variant="light"
            tt="none"
            leftSection={<IconFilter size={14} />}
            data-testid="dossier-list-query-name"
          >
            {t('dossier_list.query_active', {
              name: savedQuery.data ? queryName(savedQuery.data, locale) : `#${savedQueryId}`,
            })}
          </Badge>
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconX size={14} />}
            onClick={clearSavedQuery}
            data-testid="dossier-list-query-clear"
          >
            {t('dossier_list.query_clear')}
          </Button>
        </Group>
      ) : null}

      {filtersOpen ? (
        search.isLoading ? (
          <Loader size="sm" />
        ) : (
          <SearchPanel
            items={search.items}
            applied={{ search: state.search, archived: state.archived }}
            optionsOf={optionsOf}
            users={members.users}
            loadUsers={members.loadUsers}
            currentUserId={token?.user_id}
            onApply={applyFilters}
          />
        )
      ) : null}

      {list.isError ? (
        <Alert color="red" data-testid="dossier-list-error">
          {errorMessage(list.error, t)}
        </Alert>
      ) : null}

      {selectedRows.length > 0 ? (
        <BulkBar
          selected={selectedRows}
          canDelete={abilities.canDelete}
          canArchive={abilities.canArchive}
          canMassUpdate={abilities.canMassUpdate && abilities.canEdit}
          canMerge={abilities.canMerge}
          onMerge={() => setMerging([selectedRows[0].id, selectedRows[1].id])}
          onMassUpdate={() =>
            navigate(`/defdossier/${entityId}/massupdate?ids=${selectedRows.map((d) => d.id).join(',')}`)
          }
          exportButton={
            <ExportButton
              entityId={entityId}
              abilities={abilities}
              target={{ type: 'selection', ids: selectedRows.map((d) => d.id) }}
              testId="dossier-bulk-export"
            />
          }
          onDone={() => {
            // the bar and its buttons go with the selection: the focus goes to the page's heading
            setSelected(new Set());
            focusMain();
            refresh();
          }}
        />
      ) : null}

      {!data ? (
        <Center py="xl">
          <Loader data-testid="dossier-list-loading" />
        </Center>
      ) : (
        <Stack gap="xs" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <DossierTable
            items={data.results.items}
            dossiers={data.results.dossiers}
            contents={data.results.contents as Record<string, Record<string, unknown>>}
            optionsOf={optionsOf}
            users={members.users}
            tabsAllowed={tabs.data}
            subscribed={subscriptions.data}
            sort={state.sort}
            onSort={(itemId) => update({ sort: cycleSort(state.sort, itemId), page: 1 })}
            selected={selected}
            onSelect={setSelected}
            aggregates={state.aggregates}
            aggregations={data.results.aggregations}
            onAggregate={aggregate}
            onOpen={open}
            onQuickShow={(id) => setQuick({ mode: 'show', id })}
            onQuickEdit={(id) => setQuick({ mode: 'edit', id })}
            canEdit={abilities.canEdit}
          />
          {data.results.dossiers.length === 0 ? (
            <Text ta="center" c="dimmed" py="md" data-testid="dossier-list-empty">
              {t('dossier_list.empty')}
            </Text>
          ) : null}
          <Group justify="space-between" data-testid="dossier-list-footer">
            <Text
              size="sm"
              c="dimmed"
              // read out when a filter or page changes the result
              aria-live="polite"
              data-testid="dossier-list-total"
              data-total={data.pager.items}
            >
              {t(data.pager.estimated ? 'dossier_list.total_estimated' : 'dossier_list.total', {
                count: data.pager.items,
              })}
            </Text>
            <Pager
              total={data.pager.pages}
              value={state.page}
              onChange={(page) => update({ page })}
              withEdges
              data-testid="dossier-pager"
            />
            {data.pager.pages > 1 || data.pager.items > 10 ? (
              <Group gap="xs">
                <Text size="sm">{t('dossier_list.page_size')}</Text>
                <Select
                  w={90}
                  data={PAGE_SIZES.map(String)}
                  value={String(pageSize)}
                  onChange={changePageSize}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  aria-label={t('dossier_list.page_size')}
                  data-testid="dossier-page-size"
                />
              </Group>
            ) : (
              <span />
            )}
          </Group>
        </Stack>
      )}
      {merging && environment ? (
        <MergeModal
          opened
          ids={merging}
          entityId={entityId}
          environmentId={environment.id}
          canArchive={abilities.canArchive}
          canDelete={abilities.canDelete}
          onClose={() => setMerging(null)}
          onMerged={() => {
            setMerging(null);
            setSelected(new Set());
            refresh();
          }}
        />
      ) : null}
      <QuickShowModal dossierId={quick?.mode === 'show' ? quick.id : null} onClose={() => setQuick(null)} />
      <QuickEditModal
        dossierId={quick?.mode === 'edit' ? quick.id : null}
        onClose={() => setQuick(null)}
        onSaved={refresh}
      />
    </Stack>
  );
}
