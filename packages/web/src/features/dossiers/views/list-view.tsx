import { type DisplayItem, NO_ENTITY_ABILITIES } from '@dossierbase/core';
import { ActionIcon, Alert, Center, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { Pager } from '../../../app/pager';
import { useTokenData } from '../../auth/session';
import { isEnvironmentAdmin, useEnvironment } from '../../environments/environment-store';
import { storedUserIds } from '../known-users';
import { BulkBar } from '../list/bulk-bar';
import { DossierTable } from '../list/dossier-table';
import {
  dossierListKeys,
  useEntityAbilities,
  useItemOptions,
  useSearchItems,
  useSubscriptions,
  useTabsAllowed,
} from '../list/list-api';
import { type Archived, cycleSort, type Sort, searchQueryParams } from '../list/list-params';
import { type SearchFilters, SearchPanel } from '../list/search-panel';
import { QuickShowModal } from '../quick-modals';
import { useEnvironmentUsers } from '../use-environment-users';
import type { LinkedViewProps } from './linked-view';
import { DossierSidePanel } from './side-panel';
import { linkSortParams } from './view-logic';
import { embeddedParams, useEmbeddedList, useLinkOfParent } from './views-api';

// The list view of an embedded list (spec doc 2 section 2): the parent's linked dossiers in the
// table of the dossier list (select-all, bell column, sortable headers, clickable rows), its filter
// form from the child entity's search items, a pager, and the bulk bar on a selection.

const EMBEDDED_PAGE_SIZE = 10;

export function EmbeddedListView(props: LinkedViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const environment = useEnvironment();
  const token = useTokenData();
  const admin = isEnvironmentAdmin(environment);
  const linkOf = useLinkOfParent(props.parentDossierId, props.linkId);
  const settings = linkOf.data?.settings;
  const abilities = useEntityAbilities(props.entityId).data ?? NO_ENTITY_ABILITIES;
  const search = useSearchItems(props.entityId);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort | null>(null);
  const [filters, setFilters] = useState<SearchFilters>({ search: {}, archived: 'none' as Archived });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [quickShow, setQuickShow] = useState<number | null>(null);
  const [panel, setPanel] = useState<number | null>(null);
  const [listItems, setListItems] = useState<readonly DisplayItem[]>([]);

  const query = useMemo(() => {
    const params = new URLSearchParams({
      ...embeddedParams(props),
      limit: String(EMBEDDED_PAGE_SIZE),
      page: String(page - 1),
    });
    if (filters.archived !== 'none') params.set('archived', filters.archived);
    // the user's sort, else the link's configured sort
    const sorts: [string, string][] = sort
      ? [[String(sort.itemId), sort.order]]
      : linkSortParams(settings?.sort ?? [], listItems);
    for (const [name, order] of sorts) {
      params.append('sort[]', name);
      params.append('sortOrder[]', order);
    }
    for (const [key, value] of Object.entries(
      searchQueryParams(search.items, filters.search, token?.user_id),
    ))
      params.set(key, value);
    return params.toString();
  }, [props, page, sort, filters, settings, listItems, search.items, token?.user_id]);

  const list = useEmbeddedList(props, query);
  const data = list.data;
  // the list items are known from the first answer; the link's sort names them by data field
  useEffect(() => {
    if (data && data.results.items !== listItems && listItems.length === 0 && data.results.items.length > 0)
      setListItems(data.results.items);
  }, [data, listItems]);
  const ids = useMemo(() => data?.results.dossiers.map((d) => d.id) ?? [], [data]);
  const tabs = useTabsAllowed(props.entityId, ids);
  const subscriptions = useSubscriptions(props.environmentId, ids);
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
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page, sort or filter drops the selection
  useEffect(() => setSelected(new Set()), [query]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: dossierListKeys.all });
  const clickable = settings?.clickable !== false;
  // passing_sidebar: a row opens in the side panel in that view, the parent's page stays
  const sidebarView = settings?.passing_sidebar ?? '';
  const open = (id: number, newWindow: boolean) => {
    if (!clickable) return;
    const href = `/contentdossier/${id}`;
    if (newWindow) window.open(href, '_blank');
    else if (sidebarView) setPanel(id);
    else navigate(href);
  };
  const backLinkId = linkOf.data?.link.back_link_id;
  const hiddenLinkIds = useMemo(
    () => [props.linkId, ...(backLinkId ? [backLinkId] : [])],
    [props.linkId, backLinkId],
  );
  const selectable = !settings?.only_allow_add;
  const selectedRows = (data?.results.dossiers ?? [])
    .filter((d) => selected.has(d.id))
    .map((d) => ({
      id: d.id,
      archived: d.archived,
      summary: d.summary,
      subscribed: subscriptions.data?.has(d.id) ?? false,
    }));

  if (list.isError && !data)
    return (
      <Alert color="red" data-testid="embedded-list-error">
        {errorMessage(list.error, t)}
      </Alert>
    );

  return (
    <Stack gap="xs" data-testid="embedded-list-view">
      <Group justify="flex-end" gap="xs">
        <Tooltip label={t('dossier_list.filter')}>
          <ActionIcon
            variant={filtersOpen ? 'filled' : 'default'}
            aria-label={t('dossier_list.filter')}
            aria-expanded={filtersOpen}
            onClick={() => setFiltersOpen((o) => !o)}
            data-testid="embedded-filter-toggle"
          >
            <IconFilter size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {filtersOpen ? (
        search.isLoading ? (
          <Loader size="sm" />
        ) : (
          <SearchPanel
            items={search.items}
            applied={filters}
            optionsOf={optionsOf}
            users={members.users}
            loadUsers={members.loadUsers}
            currentUserId={token?.user_id}
            onApply={(next) => {
              setFilters(next);
              setPage(1);
            }}
          />
        )
      ) : null}
      {selectable && selectedRows.length > 0 ? (
        <BulkBar
          selected={selectedRows}
          canDelete={abilities.canDelete}
          canArchive={abilities.canArchive}
          canMassUpdate={false}
          canMerge={false}
          onMerge={() => undefined}
          onMassUpdate={() => undefined}
          onDone={() => {
            setSelected(new Set());
            void refresh();
          }}
        />
      ) : null}
      {!data ? (
        <Center py="md">
          <Loader size="sm" data-testid="embedded-list-loading" />
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
            sort={sort}
            onSort={(itemId) => {
              setSort(cycleSort(sort, itemId));
              setPage(1);
            }}
            selected={selected}
            onSelect={setSelected}
            aggregates={{}}
            aggregations={[]}
            onAggregate={() => undefined}
            onOpen={open}
            onQuickShow={clickable ? setQuickShow : undefined}
            canEdit={abilities.canEdit}
            showId={settings?.show_id}
            selectable={selectable}
            aggregatable={false}
          />
          {data.results.dossiers.length === 0 ? (
            <Text ta="center" c="dimmed" py="sm" data-testid="embedded-list-empty">
              {t('dossier_list.empty')}
            </Text>
          ) : null}
          {data.pager.pages > 1 ? (
            <Group justify="space-between">
              <Text size="sm" c="dimmed" aria-live="polite" data-testid="embedded-list-total">
                {t('dossier_list.total', { count: data.pager.items })}
              </Text>
              <Pager total={data.pager.pages} value={page} onChange={setPage} data-testid="embedded-pager" />
            </Group>
          ) : null}
        </Stack>
      )}
      <QuickShowModal dossierId={quickShow} onClose={() => setQuickShow(null)} />
      {sidebarView ? (
        <DossierSidePanel
          dossierId={panel}
          view={sidebarView}
          hiddenLinkIds={hiddenLinkIds}
          onClose={() => setPanel(null)}
        />
      ) : null}
    </Stack>
  );
}
