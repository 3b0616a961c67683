import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { DisplayItem, Dossier, DossierListBody, ListOption } from '@dossierbase/core';
import { Alert, Badge, Box, Button, Group, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconGripVertical, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../api/client';
import { errorMessage, notifyFailure } from '../../../api/errors';
import { FieldDisplay } from '../../../fields/field-item';
import { itemLabel, optionLabel } from '../../../fields/helpers';
import { useFieldLocale } from '../../../fields/shared';
import { dossierListKeys } from '../list/list-api';
import type { LinkedViewProps } from './linked-view';
import { setListValue, useKanbanBoard, useKanbanColumnMore } from './views-api';
import './kanban.css';

// The kanban view (spec doc 3 sections 4, 5 and 7): one column per option of the entity's
// kanban_list_field (with its colour), 50 cards a column and more on scroll, a search on the
// kanban_search_field. Dropping a card on another column sets its list value through
// POST /contentlist/{dossier}/{item}/set; without edit permission the card stays and a message says why.

const SEARCH_DEBOUNCE_MS = 300;
/** Loads the next page when the column is scrolled this close to its end. */
const NEAR_END_PX = 120;

export function KanbanView(props: LinkedViewProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // the columns and the first page of each, in one call
  const board = useKanbanBoard(props, debounced);
  // cards moved on screen while the server writes: dossier id -> column
  const [moved, setMoved] = useState<Map<number, { from: number; to: number; dossier: Dossier }>>(new Map());
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor),
  );

  if (board.isPending) return <Loader size="sm" />;
  if (board.isError) return <Alert color="red">{errorMessage(board.error, t)}</Alert>;
  const answer = board.data;
  if (answer.missing)
    return (
      <Alert color="yellow" data-testid="kanban-warning">
        {t(`embedded.warnings.${answer.missing}`)}
      </Alert>
    );

  const drop = async (event: DragEndEvent) => {
    const card = event.active.data.current as { dossier: Dossier; column: number } | undefined;
    const to = event.over ? Number(event.over.id) : null;
    if (!card || to === null || to === card.column) return;
    if (answer.list_item_id === null) {
      notifyFailure(t('embedded.kanban.not_allowed'));
      return;
    }
    const id = card.dossier.id;
    setMoved((m) => new Map(m).set(id, { from: card.column, to, dossier: card.dossier }));
    try {
      await setListValue(id, answer.list_item_id, [to]);
      await queryClient.invalidateQueries({ queryKey: dossierListKeys.all });
    } catch (error) {
      // the card goes back to where it was
      notifyFailure(isApiError(error, 403) ? t('embedded.kanban.not_allowed') : errorMessage(error, t));
    } finally {
      setMoved((m) => {
        const next = new Map(m);
        next.delete(id);
        return next;
      });
    }
  };

  return (
    <Stack gap="xs" data-testid="kanban-view">
      <TextInput
        leftSection={<IconSearch size={14} />}
        placeholder={t('common.search')}
        aria-label={t('embedded.kanban.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={320}
        data-testid="kanban-search"
      />
      <DndContext sensors={sensors} onDragEnd={(event) => void drop(event)}>
        <ScrollArea type="auto" offsetScrollbars>
          <Group align="flex-start" wrap="nowrap" gap="sm">
            {answer.columns.map((option) => (
              <KanbanColumn
                key={option.id}
                view={props}
                option={option}
                first={answer.pages[String(option.id)]}
                search={debounced}
                moved={moved}
              />
            ))}
          </Group>
        </ScrollArea>
      </DndContext>
    </Stack>
  );
}

function KanbanColumn(props: {
  view: LinkedViewProps;
  option: ListOption;
  /** the column's first page, from the board */
  first: DossierListBody | undefined;
  search: string;
  moved: Map<number, { from: number; to: number; dossier: Dossier }>;
}) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const { option, moved } = props;
  // the pages after the first are read once the column is scrolled to its end (again for a new search)
  const [wantsMore, setWantsMore] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search starts at the board's page
  useEffect(() => setWantsMore(false), [props.search]);
  const column = useKanbanColumnMore(props.view, String(option.id), props.search, wantsMore);
  const { setNodeRef, isOver } = useDroppable({ id: String(option.id) });
  const pages = [...(props.first ? [props.first] : []), ...(wantsMore ? (column.data?.pages ?? []) : [])];
  const items = pages[0]?.results.items ?? [];
  const contents = Object.assign({}, ...pages.map((p) => p.results.contents)) as Record<
    string,
    Record<string, unknown>
  >;
  const total = pages[0]?.pager.items ?? 0;
  const here = pages
    .flatMap((p) => p.results.dossiers)
    .filter((d) => !moved.has(d.id) || moved.get(d.id)?.to === option.id);
  const arriving = [...moved.values()].filter(
    (m) => m.to === option.id && !here.some((d) => d.id === m.dossier.id),
  );
  const cards = [...arriving.map((m) => m.dossier), ...here];
  const label = optionLabel(option, locale);
  const colour = option.color || 'var(--mantine-color-gray-4)';
  const hasMore = wantsMore ? column.hasNextPage : (props.first?.pager.pages ?? 0) > 1;
  const loadingMore = wantsMore && (column.isPending || column.isFetchingNextPage);
  const more = () => {
    if (!wantsMore) setWantsMore(hasMore);
    else if (column.hasNextPage && !column.isFetchingNextPage) void column.fetchNextPage();
  };

  return (
    <Box
      ref={setNodeRef}
      w={280}
      miw={280}
      p="xs"
      bg={isOver ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-gray-0)'}
      style={{ borderTop: `4px solid ${colour}`, borderRadius: 4 }}
      data-testid="kanban-column"
      data-option-id={option.id}
      role="region"
      aria-label={label}
    >
      <Group justify="space-between" mb="xs">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Badge variant="light" color="gray" data-testid="kanban-column-total">
          {total}
        </Badge>
      </Group>
      <ScrollArea.Autosize
        mah={600}
        onScrollPositionChange={({ y }) => {
          const viewport = document.querySelector(`[data-kanban-viewport="${option.id}"]`);
          if (viewport && viewport.scrollHeight - y - viewport.clientHeight < NEAR_END_PX) more();
        }}
        viewportProps={{ 'data-kanban-viewport': option.id } as Record<string, unknown>}
      >
        <Stack gap="xs" mih={60}>
          {cards.map((dossier) => (
            <KanbanCard
              key={dossier.id}
              dossier={dossier}
              column={option.id}
              items={items}
              content={contents[String(dossier.id)] ?? {}}
            />
          ))}
          {hasMore ? (
            <Button variant="subtle" size="xs" onClick={more} loading={loadingMore} data-testid="kanban-more">
              {t('fields.link.more')}
            </Button>
          ) : null}
        </Stack>
      </ScrollArea.Autosize>
    </Box>
  );
}

/**
 * One card. Plain elements with the classes of kanban.css, not Mantine components: a board draws 250
 * of them at once (5 columns of 50), and a dozen Mantine components a card made the first page take
 * about three times as long to draw.
 */
function KanbanCard(props: {
  dossier: Dossier;
  column: number;
  items: readonly DisplayItem[];
  content: Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const locale = useFieldLocale();
  const { dossier } = props;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, isDragging } = useDraggable({
    id: `card-${dossier.id}`,
    data: { dossier, column: props.column },
  });
  const title = dossier.summary || `#${dossier.id}`;
  return (
    <div
      ref={setNodeRef}
      className="kanban-card"
      data-dragging={isDragging || undefined}
      style={transform ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` } : undefined}
      data-testid="kanban-card"
      data-dossier-id={dossier.id}
    >
      {/* the handle moves the card (pointer or Space and the arrow keys); the title opens it */}
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="kanban-card-handle"
        {...attributes}
        {...listeners}
        aria-label={t('embedded.kanban.move', { name: title })}
        data-testid="kanban-card-handle"
      >
        <IconGripVertical size={14} aria-hidden />
      </button>
      <div className="kanban-card-body">
        <Link to={`/contentdossier/${dossier.id}`} className="kanban-card-title">
          {title}
        </Link>
        {props.items.slice(0, 4).map((item) => {
          const value = props.content[String(item.id)];
          if (value === null || value === undefined || value === '') return null;
          return (
            <div key={item.id} className="kanban-card-value">
              <span className="kanban-card-label">{itemLabel(item, locale)}:</span>
              <FieldDisplay item={item} value={value} listMode />
            </div>
          );
        })}
      </div>
    </div>
  );
}
