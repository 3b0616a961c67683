import { Alert, Box, Grid, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArchive } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { NotFoundPage } from '../../app/not-found-page';
import { joinEnvironmentRoom } from '../../app/realtime';
import { useFieldLocale } from '../../fields/shared';
import { environmentStore, useEnvironment } from '../environments/environment-store';
import { getEnvironment } from '../environments/environments-api';
import { DossierHistory } from '../log/dossier-history';
import { DossierViewers } from '../realtime/dossier-viewers';
import { DossierActionBar } from './detail/action-bar';
import { detailValues } from './detail/dossier-data';
import { DetailHeader } from './detail-header';
import { DetailTab } from './detail-tab';
import { dossierKeys, fetchAbilities, fetchDossier, fetchTabsAllowed, isEditAllowed } from './dossier-api';
import { DossierForm } from './dossier-form';
import { detailTabs, positionsOfType } from './form-logic';
import { knownUsers, storedUserIds } from './known-users';
import { PageError, PageLoading } from './page-states';
import { positionName, useEntityLayout, useEntityNames } from './use-entity-layout';
import { useFieldSources } from './use-field-sources';

// /contentdossier/{id}: header, the main content tab and further tabs (display positions) in the
// default (horizontal) or vertical layout, meta positions above and footer positions below each tab.

/** A dossier of another environment of the user: switch to that environment, then show it. */
function useEnvironmentOf(environmentId: number | undefined) {
  const environment = useEnvironment();
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState<unknown>(null);
  const other = environmentId !== undefined && environment !== null && environment.id !== environmentId;
  useEffect(() => {
    if (!other || environmentId === undefined) return;
    let current = true;
    getEnvironment(environmentId)
      .then((fresh) => {
        if (!current) return;
        queryClient.removeQueries({
          predicate: (query) => !['config', 'environment', 'dossier'].includes(String(query.queryKey[0])),
        });
        environmentStore.set(fresh);
        joinEnvironmentRoom(fresh.id);
      })
      .catch((error) => current && setFailed(error));
    return () => {
      current = false;
    };
  }, [other, environmentId, queryClient]);
  return { switching: other && !failed, failed };
}

export function DossierDetailPage() {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const id = Number(useParams().id);
  const [searchParams, setSearchParams] = useSearchParams();
  const overview = useQuery({
    queryKey: dossierKeys.detail(id, null),
    queryFn: ({ signal }) => fetchDossier(id, null, signal),
    enabled: id > 0,
  });
  const data = overview.data;
  const defDossier = data?.dossier.def_dossier_id ?? 0;
  const { switching, failed } = useEnvironmentOf(data?.dossier.environment_id);
  const names = useEntityNames(defDossier);
  const { layout, loading: layoutLoading } = useEntityLayout(defDossier);
  const users = useMemo(
    () => knownUsers(data?.dossier.created_by, data?.dossier.modified_by),
    [data?.dossier.created_by, data?.dossier.modified_by],
  );
  const shownUserIds = useMemo(() => (data ? storedUserIds(data.items, [data.content]) : []), [data]);
  const sources = useFieldSources(layout.options, users, shownUserIds);
  const wide = useMediaQuery('(min-width: 576px)');

  const access = useQuery({
    queryKey: dossierKeys.tabs(defDossier, id),
    queryFn: async ({ signal }) => {
      const [abilities, tabs] = await Promise.all([
        fetchAbilities(defDossier, signal),
        fetchTabsAllowed(defDossier, [id]),
      ]);
      const tabsAllowed = tabs.find((row) => row.id === id)?.tabs_allowed ?? false;
      const canEdit = abilities.canEdit && (await isEditAllowed(defDossier, id, signal));
      return { tabsAllowed, canEdit, abilities };
    },
    enabled: defDossier > 0 && !switching,
  });

  const tabs = useMemo(
    () =>
      data
        ? detailTabs(layout.positions, data.items, (p) => positionName(p, locale)).map((tab, index) => ({
            ...tab,
            name:
              tab.name || (index === 0 ? t('dossier.main_tab') : t('dossier.tab_fallback', { n: index + 1 })),
          }))
        : [],
    [data, layout.positions, locale, t],
  );
  const requested = Number(searchParams.get('selectedTab'));
  const selected = tabs.find((tab) => tab.id === requested) ?? tabs[0];

  const title = data ? data.dossier.summary || `#${data.dossier.id}` : '';
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = [title, names.name].filter(Boolean).join(' - ');
    return () => {
      document.title = previous;
    };
  }, [title, names.name]);

  if (overview.error) return <PageError error={overview.error} />;
  if (failed) return <PageError error={failed} />;
  if (access.error) return <PageError error={access.error} />;
  if (!data || switching || layoutLoading || access.isPending) return <PageLoading />;
  // With no positions at all the general not-found message is raised (spec doc 3, page layouts).
  if (tabs.length === 0) return <NotFoundPage />;
  if (!access.data.tabsAllowed)
    return (
      <Alert color="red" m="md" data-testid="dossier-not-allowed">
        {t('403_general_message')}
      </Alert>
    );

  const archived = data.dossier.archived;
  const canEdit = access.data.canEdit && !archived;
  const { conditions } = layout.settings;
  const positionItems = (type: 'meta' | 'footer') =>
    positionsOfType(layout.positions, type).map((position) => ({
      position,
      items: data.items.filter((item) => item.display_position_id === position.id),
    }));
  const meta = positionItems('meta');
  const footer = positionItems('footer');
  const extra = (list: typeof meta, kind: string) =>
    list.map(({ position, items }) =>
      items.length > 0 ? (
        <DossierForm
          key={position.id}
          items={items}
          mode="show"
          values={detailValues(data)}
          conditions={conditions}
          sources={sources}
          testId={`dossier-${kind}-${position.id}`}
          dossier={{
            id: data.dossier.id,
            environmentId: data.dossier.environment_id,
            summary: data.dossier.summary,
          }}
        />
      ) : null,
    );
  const vertical = layout.settings.detailLayout === 'vertical';
  const select = (value: string | null) => {
    if (!value) return;
    const next = new URLSearchParams(searchParams);
    next.set('selectedTab', value);
    setSearchParams(next);
  };

  const panel = selected ? (
    <Stack>
      {extra(meta, 'meta')}
      <DetailTab
        key={selected.id}
        dossierId={id}
        tab={selected}
        overview={data}
        canEdit={canEdit}
        conditions={conditions}
        sources={sources}
      />
      {extra(footer, 'footer')}
    </Stack>
  ) : (
    <Text c="dimmed" data-testid="dossier-no-tab">
      {t('dossier.no_tab')}
    </Text>
  );

  const tabList = (
    <Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Tab key={tab.id} value={String(tab.id)} data-testid={`dossier-tab-${tab.id}`}>
          {tab.name}
        </Tabs.Tab>
      ))}
    </Tabs.List>
  );

  return (
    <Stack p="md" gap="md" data-testid="dossier-detail-page">
      <DetailHeader
        detail={data}
        typeName={names.name}
        actions={
          <>
            <DossierViewers dossierId={id} />
            <DossierActionBar
              detail={data}
              abilities={access.data.abilities}
              selectedTab={selected ? selected.id : null}
              extra={
                access.data.abilities.canReadLog ? (
                  <DossierHistory dossierId={id} environmentId={data.dossier.environment_id} />
                ) : null
              }
            />
          </>
        }
      />
      {archived ? (
        <Alert color="yellow" icon={<IconArchive size={18} />} data-testid="dossier-archived-banner">
          {t('dossier.archived')}
        </Alert>
      ) : null}
      {vertical && wide ? (
        <Tabs
          value={selected ? String(selected.id) : null}
          onChange={select}
          orientation="vertical"
          variant="pills"
        >
          <Grid w="100%">
            <Grid.Col span={2}>{tabList}</Grid.Col>
            <Grid.Col span={10}>
              <Box>{panel}</Box>
            </Grid.Col>
          </Grid>
        </Tabs>
      ) : (
        <Tabs
          value={selected ? String(selected.id) : null}
          onChange={select}
          variant={vertical ? 'pills' : 'default'}
        >
          {tabList}
          <Box pt="md">{panel}</Box>
        </Tabs>
      )}
    </Stack>
  );
}
