import { Carousel } from '@mantine/carousel';
import '@mantine/carousel/styles.css';
import { type Block, type DisplayItem, type Dossier, NO_ENTITY_ABILITIES } from '@dossierbase/core';
import {
  Anchor,
  Box,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Timeline,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../app/format';
import { FieldDisplay, itemLabel } from '../../fields';
import { useFieldLocale } from '../../fields/shared';
import { storedUserIds } from '../dossiers/known-users';
import { useEntityAbilities, useItemOptions } from '../dossiers/list/list-api';
import { openNewLinkedDossier } from '../dossiers/new-linked-dossier';
import { useEnvironmentUsers } from '../dossiers/use-environment-users';
import { isEnvironmentAdmin, useEnvironment } from '../environments/environment-store';
import { NoItems } from './block-renderers';
import { BlockError, BlockLoading } from './block-states';
import { type BlockDataParams, type ListAnswer, useBlockData } from './dashboard-api';
import { InlineEdit } from './inline-edit';

// The dossier list block (type dashboard, spec document 1 section 3 and document 2 section 2): the
// dossiers of its entity and query as a table, as cards in one of five templates (in a carousel when
// asked), or as a calendar of three days (react-big-calendar, loaded when a block asks for it); tabs of saved queries (tab_queries); an add button
// (show_add, with create permission) and values edited in place (inline_edit, with edit permission,
// through the dossier's ordinary update call).

const ListBlockCalendar = lazy(() => import('./list-block-calendar'));

export interface TabQuery {
  query: number;
  title: string;
}

/** The block's tabs: each a saved query with a title. */
export function tabQueriesOf(block: Block): TabQuery[] {
  const tabs = block.settings.tab_queries;
  if (!Array.isArray(tabs)) return [];
  return tabs.flatMap((tab: { query?: unknown; title?: unknown }) =>
    Number(tab?.query) > 0 ? [{ query: Number(tab.query), title: String(tab.title ?? '') }] : [],
  );
}

/** The list column chosen for a template slot (templateOptions: slot -> display item id). */
function slotItem(block: Block, items: readonly DisplayItem[], slot: string): DisplayItem | undefined {
  const options = (block.settings.templateOptions ?? {}) as Record<string, unknown>;
  const id = Number(options[slot]);
  return id ? items.find((item) => item.id === id) : undefined;
}

interface Props {
  block: Block;
  params: BlockDataParams;
  height: number;
  /** read the data only once the block has been in view */
  enabled: boolean;
}

export function DossierListBlock({ block, params, height, enabled }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const entity = block.def_dossier?.id ?? 0;
  const abilities = useEntityAbilities(entity).data ?? NO_ENTITY_ABILITIES;
  const tabs = tabQueriesOf(block);
  const add =
    block.settings.show_add === true && abilities.canCreate && entity > 0 ? (
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconPlus size={14} />}
        onClick={async () => {
          const created = await openNewLinkedDossier(entity);
          if (created) await queryClient.invalidateQueries({ queryKey: ['dashboard', 'data', block.id] });
        }}
        data-testid="block-list-add"
      >
        {t('dashboard_page.add_dossier')}
      </Button>
    ) : null;
  const body = (query?: number) => (
    <ListData
      block={block}
      params={query ? { ...params, query } : params}
      height={height}
      enabled={enabled}
      canEdit={abilities.canEdit && block.settings.inline_edit === true}
    />
  );
  if (tabs.length === 0)
    return (
      <Stack gap="xs">
        {add && <Group justify="flex-end">{add}</Group>}
        {body()}
      </Stack>
    );
  return (
    <Tabs defaultValue={String(tabs[0].query)} keepMounted={false} data-testid="block-list-tabs">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.query} value={String(tab.query)} data-testid="block-list-tab">
              {tab.title || `#${tab.query}`}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {add}
      </Group>
      {tabs.map((tab) => (
        <Tabs.Panel key={tab.query} value={String(tab.query)} pt="xs">
          {body(tab.query)}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

function ListData({
  block,
  params,
  height,
  enabled,
  canEdit,
}: Omit<Props, 'enabled'> & { enabled: boolean; canEdit: boolean }) {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const data = useBlockData<ListAnswer>(block, params, enabled);
  const list = data.data?.list;
  const items = list?.results.items ?? [];
  const contents = (list?.results.contents ?? {}) as Record<string, Record<string, unknown>>;
  const optionsOf = useItemOptions(items, isEnvironmentAdmin(environment));
  const members = useEnvironmentUsers(list ? storedUserIds(items, Object.values(contents)) : []);
  if (!enabled || data.isPending) return <BlockLoading height={height} />;
  if (data.isError || !list) return <BlockError error={data.error} />;
  const dossiers = list.results.dossiers;
  if (dossiers.length === 0) return <NoItems />;

  const value = (dossier: Dossier, item: DisplayItem | undefined) =>
    item ? (
      <FieldDisplay
        item={item}
        value={contents[String(dossier.id)]?.[String(item.id)]}
        options={optionsOf(item)}
        users={members.users}
        listMode
      />
    ) : null;
  const view: ViewProps = { block, dossiers, items, contents, value, canEdit, height };
  const layout = block.settings.layout;
  return (
    <>
      {layout === 'calendar' ? (
        <Suspense fallback={<BlockLoading height={height} />}>
          <ListBlockCalendar {...view} />
        </Suspense>
      ) : layout === 'cards' ? (
        <CardsView {...view} />
      ) : (
        <TableView {...view} />
      )}
      {list.pager.items > dossiers.length && (
        <Anchor component={Link} to={`/defdossier/${block.def_dossier?.id}`} size="sm">
          {t('dashboard.show_all', { count: list.pager.items })}
        </Anchor>
      )}
    </>
  );
}

export interface ViewProps {
  block: Block;
  dossiers: readonly Dossier[];
  items: readonly DisplayItem[];
  contents: Record<string, Record<string, unknown>>;
  value: (dossier: Dossier, item: DisplayItem | undefined) => React.ReactNode;
  canEdit: boolean;
  height: number;
}

function DossierLink({ dossier }: { dossier: Dossier }) {
  return (
    <Anchor component={Link} to={`/contentdossier/${dossier.id}`} fw={600} data-testid="block-dossier-link">
      {dossier.summary || `#${dossier.id}`}
    </Anchor>
  );
}

/** The list view's columns, each value editable in place when inline_edit is on and allowed. */
function TableView({ block, dossiers, items, contents, value, canEdit }: ViewProps) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table striped data-testid="block-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('dashboard.dossier')}</Table.Th>
            {items.length === 0 && <Table.Th>{t('dashboard.created')}</Table.Th>}
            {items.map((item) => (
              <Table.Th key={item.id}>{itemLabel(item, locale)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dossiers.map((dossier) => (
            <Table.Tr key={dossier.id} data-testid="block-list-row" data-dossier-id={dossier.id}>
              <Table.Td>
                <DossierLink dossier={dossier} />
              </Table.Td>
              {items.length === 0 && <Table.Td>{formatDate(dossier.created_at)}</Table.Td>}
              {items.map((item) => (
                <Table.Td key={item.id} data-testid={`block-cell-${item.id}`}>
                  {canEdit && item.def_dossier_def_field && !dossier.archived ? (
                    <InlineEdit
                      block={block}
                      dossier={dossier}
                      item={item}
                      value={contents[String(dossier.id)]?.[String(item.id)]}
                    >
                      {value(dossier, item)}
                    </InlineEdit>
                  ) : (
                    value(dossier, item)
                  )}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One dossier as a card of the block's template. */
function DossierCard({ template, dossier, ...view }: ViewProps & { template: string; dossier: Dossier }) {
  const locale = useFieldLocale();
  const slot = (name: string) => slotItem(view.block, view.items, name);
  const title = slot('title');
  const heading = title ? (
    <Anchor component={Link} to={`/contentdossier/${dossier.id}`} fw={600}>
      {view.value(dossier, title)}
    </Anchor>
  ) : (
    <DossierLink dossier={dossier} />
  );
  const part = (name: string, dimmed = false) => {
    const item = slot(name);
    return item ? (
      <Box c={dimmed ? 'dimmed' : undefined} fz="sm" data-testid={`block-card-${name}`}>
        {view.value(dossier, item)}
      </Box>
    ) : null;
  };
  if (template === 'cardPerson')
    return (
      <Paper withBorder p="xs" data-testid="block-card-item" data-template={template}>
        <Group wrap="nowrap" align="flex-start">
          {slot('picture') && (
            <Box w={64} style={{ flexShrink: 0, overflow: 'hidden', borderRadius: '50%' }}>
              {part('picture')}
            </Box>
          )}
          <Stack gap={2}>
            {heading}
            {part('description', true)}
          </Stack>
        </Group>
      </Paper>
    );
  if (template === 'cardCarousel')
    return (
      <Paper withBorder p="xs" h="100%" data-testid="block-card-item" data-template={template}>
        <Stack gap={4}>
          {part('picture')}
          {heading}
          {part('subtitle', true)}
          {part('description')}
        </Stack>
      </Paper>
    );
  if (template === 'cardListVariant')
    return (
      <Group
        justify="space-between"
        wrap="nowrap"
        py={4}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        data-testid="block-card-item"
        data-template={template}
      >
        {heading}
        <Group gap="md" wrap="nowrap">
          {view.items.slice(0, 2).map((item) => (
            <Box key={item.id} fz="sm">
              {view.value(dossier, item)}
            </Box>
          ))}
        </Group>
      </Group>
    );
  // cardDefault: the summary over every list column with its label
  return (
    <Paper withBorder p="xs" h="100%" data-testid="block-card-item" data-template="cardDefault">
      {heading}
      <Stack gap={2} mt={4}>
        {view.items.map((item) => (
          <Group key={item.id} gap={6} wrap="nowrap" fz="sm">
            <Text size="sm" c="dimmed">
              {itemLabel(item, locale)}:
            </Text>
            {view.value(dossier, item)}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

const TEMPLATES = ['cardDefault', 'cardCarousel', 'cardPerson', 'cardListVariant', 'cardTimeline'];

function CardsView(view: ViewProps) {
  const { t } = useTranslation();
  const asked = String(view.block.settings.template ?? '');
  const template = TEMPLATES.includes(asked) ? asked : 'cardDefault';
  if (template === 'cardTimeline') {
    const slot = (name: string) => slotItem(view.block, view.items, name);
    return (
      <Timeline bulletSize={14} lineWidth={2} data-testid="block-timeline">
        {view.dossiers.map((dossier) => (
          <Timeline.Item
            key={dossier.id}
            data-testid="block-card-item"
            data-template={template}
            title={
              slot('title') ? (
                <Anchor component={Link} to={`/contentdossier/${dossier.id}`} fw={600}>
                  {view.value(dossier, slot('title'))}
                </Anchor>
              ) : (
                <DossierLink dossier={dossier} />
              )
            }
          >
            <Text size="xs" c="dimmed" component="div">
              {slot('date') ? view.value(dossier, slot('date')) : formatDate(dossier.created_at)}
            </Text>
            {slot('picture') && <Box maw={120}>{view.value(dossier, slot('picture'))}</Box>}
            {slot('subtitle') && (
              <Text size="sm" fw={500} component="div">
                {view.value(dossier, slot('subtitle'))}
              </Text>
            )}
            {slot('description') && (
              <Text size="sm" component="div">
                {view.value(dossier, slot('description'))}
              </Text>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
    );
  }
  if (view.block.settings.carousel === true || template === 'cardCarousel')
    return (
      <Carousel
        withIndicators
        slideSize={{ base: '100%', sm: '50%' }}
        slideGap="xs"
        emblaOptions={{ align: 'start', slidesToScroll: 1 }}
        // the arrows and dots beside and below the cards, not over their text
        controlsOffset={0}
        px={34}
        pb={24}
        previousControlProps={{ 'aria-label': t('dashboard_page.previous') }}
        nextControlProps={{ 'aria-label': t('dashboard_page.next') }}
        data-testid="block-carousel"
      >
        {view.dossiers.map((dossier) => (
          <Carousel.Slide key={dossier.id}>
            <DossierCard {...view} template={template} dossier={dossier} />
          </Carousel.Slide>
        ))}
      </Carousel>
    );
  if (template === 'cardListVariant')
    return (
      <Stack gap={0} data-testid="block-cards">
        {view.dossiers.map((dossier) => (
          <DossierCard key={dossier.id} {...view} template={template} dossier={dossier} />
        ))}
      </Stack>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" data-testid="block-cards">
      {view.dossiers.map((dossier) => (
        <DossierCard key={dossier.id} {...view} template={template} dossier={dossier} />
      ))}
    </SimpleGrid>
  );
}
