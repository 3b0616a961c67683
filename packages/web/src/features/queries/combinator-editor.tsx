import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import {
  type DefDossierDefField,
  type DisplayItem,
  isFieldTypeName,
  OPERATORS_BY_FIELD_TYPE,
  operatorValueKind,
  QUERY_LIMITS,
} from '@dossierbase/core';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconGripVertical, IconLink, IconPlus, IconSquarePlus, IconTrash } from '@tabler/icons-react';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../app/locale-provider';
import { FieldSearchInput } from '../../fields';
import type { UserOption } from '../../fields/types';
import { translateMessage } from '../../i18n/messages';
import { useDataFields, useLinks, useListOptions } from '../admin/admin-api';
import { queryName, useEntityQueries } from './queries-api';
import {
  type CombinatorDraft,
  type FieldDraft,
  type LinkDraft,
  messagesAt,
  moveEntry,
  newCombinator,
  newField,
  newLink,
  QUERY_SYSTEM_FIELDS,
} from './query-tree';

/** What every condition of the editor reads: the server's messages and the environment's users. */
export interface EditorContextValue {
  errors: Record<string, string>;
  users: readonly UserOption[];
  loadUsers: (search: string) => Promise<UserOption[]>;
}

export const EditorContext = createContext<EditorContextValue>({
  errors: {},
  users: [],
  loadUsers: async () => [],
});

/** A condition's messages under it, read out with it. */
function ConditionMessages({ path, id }: { path: string; id: number | string | null }) {
  const { t } = useTranslation();
  const { errors } = useContext(EditorContext);
  const messages = messagesAt(errors, path, id);
  if (messages.length === 0) return null;
  return (
    <Text size="sm" c="red.8" role="alert" data-testid="query-condition-error">
      {messages.map((message) => translateMessage(t, message)).join(' ')}
    </Text>
  );
}

interface QueryField {
  value: string;
  label: string;
  type: string;
  defFieldId: number;
  item: DisplayItem;
}

/** A display item around a data field, as the field search inputs read their type and options. */
function itemOf(entityId: number, field: DefDossierDefField): DisplayItem {
  return {
    id: field.id,
    uuid: field.uuid,
    def_dossier_id: entityId,
    display_position_id: null,
    def_dossier_def_field: field,
    def_dossier_link: null,
    view: 'search',
    col: 1,
    rank: 1,
    colspan: 1,
    rowspan: 1,
    roles: [],
    permissions_type: 'EXCLUDE_SELECTED_ROLES',
    translations: [],
    settings: {},
  };
}

const searchable = (type: string) => isFieldTypeName(type) && OPERATORS_BY_FIELD_TYPE[type].length > 0;

/** The entity's fields a condition may name (those with operators), then the system fields. */
function useQueryFields(entityId: number) {
  const { t } = useTranslation();
  const { data: dataFields = [], isSuccess, isError } = useDataFields(entityId);
  const fields = useMemo<QueryField[]>(() => {
    const own = dataFields
      .filter((field) => searchable(field.def_field.type))
      .map((field) => ({
        value: String(field.id),
        label: field.name,
        type: field.def_field.type,
        defFieldId: field.def_field.id,
        item: itemOf(entityId, field),
      }));
    const system = QUERY_SYSTEM_FIELDS.map(({ id, type }) => {
      const field: DefDossierDefField = {
        id: 0,
        uuid: id,
        environment_id: 0,
        def_dossier_id: entityId,
        name: t(`queries.system_fields.${id}`),
        obligatory: false,
        locked: false,
        roles: [],
        permissions_type: 'EXCLUDE_SELECTED_ROLES',
        settings: {},
        def_field: { id: 0, uuid: id, name: id, type, settings: {} },
      };
      return { value: id, label: field.name, type, defFieldId: 0, item: itemOf(entityId, field) };
    });
    return [...own, ...system];
  }, [dataFields, entityId, t]);
  return { fields, loaded: isSuccess, failed: isError };
}

/** One field condition: the field, its operator and its value. */
function FieldConditionRow({
  entityId,
  value,
  onChange,
  onRemove,
  path,
}: {
  entityId: number;
  value: FieldDraft;
  onChange: (next: FieldDraft) => void;
  onRemove: () => void;
  path: string;
}) {
  const { t } = useTranslation();
  const { users, loadUsers } = useContext(EditorContext);
  const { fields, loaded, failed } = useQueryFields(entityId);
  const chosen = fields.find((field) => field.value === String(value.id));
  const { data: options = [] } = useListOptions(chosen?.defFieldId ?? 0);
  const missing = value.id !== null && loaded && !chosen;
  const kind = chosen && value.type ? operatorValueKind(chosen.type, value.type) : null;
  return (
    <Stack gap={4} data-testid="query-field-condition">
      <Group gap="xs" align="flex-start" wrap="wrap">
        <Select
          aria-label={t('queries.field')}
          placeholder={t('queries.field')}
          data={fields.map(({ value: v, label }) => ({ value: v, label }))}
          value={chosen ? chosen.value : null}
          onChange={(next) => {
            const field = fields.find((f) => f.value === next);
            onChange({
              id: field ? (field.defFieldId ? Number(field.value) : (field.value as FieldDraft['id'])) : null,
              type: null,
              value: null,
            });
          }}
          searchable
          w={220}
          comboboxProps={{ withinPortal: true }}
          data-testid="query-field-select"
        />
        {failed ? (
          <Badge color="red" variant="light" size="lg" data-testid="query-field-failed">
            {t('common.something_went_wrong')}
          </Badge>
        ) : null}
        {missing ? (
          <Badge color="orange" variant="light" size="lg" data-testid="query-field-missing">
            {t('queries.item_not_found')}
          </Badge>
        ) : null}
        {chosen ? (
          <FieldSearchInput
            key={chosen.value}
            item={chosen.item}
            settings={{}}
            emptyDates
            options={options}
            users={users}
            loadUsers={loadUsers}
            value={value.type ? { operator: value.type, value: value.value } : null}
            onChange={(next) =>
              onChange({
                ...value,
                type: next?.operator ?? null,
                value: (next?.value ?? null) as FieldDraft['value'],
              })
            }
          />
        ) : null}
        {kind === 'none' ? (
          <TextInput aria-label={t('fields.search.value')} value="" readOnly disabled w={160} />
        ) : null}
        <Tooltip label={t('queries.remove_condition')}>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            onClick={onRemove}
            aria-label={t('queries.remove_condition')}
            data-testid="query-field-remove"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <ConditionMessages path={path} id={value.id} />
    </Stack>
  );
}

const countOrNull = (next: string | number) => (typeof next === 'number' ? next : null);

/** A link condition: the link, how many linked dossiers, another query they are in, and groups over them. */
function LinkConditionEditor({
  entityId,
  value,
  onChange,
  onRemove,
  path,
  depth,
}: {
  entityId: number;
  value: LinkDraft;
  onChange: (next: LinkDraft) => void;
  onRemove: () => void;
  path: string;
  depth: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: links = [], isSuccess } = useLinks(entityId);
  const link = links.find((l) => l.id === value.id);
  const child = link?.child_def_dossier_id ?? 0;
  const { data: queries = [] } = useEntityQueries(child);
  const set = (patch: Partial<LinkDraft>) => onChange({ ...value, ...patch });
  return (
    <Paper withBorder p="sm" style={{ borderStyle: 'dashed' }} data-testid="query-link-condition">
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <IconLink size={18} aria-hidden style={{ marginBottom: 8 }} />
          <Select
            label={t('queries.link')}
            data={links.map((l) => ({ value: String(l.id), label: l.name }))}
            value={value.id === null ? null : String(value.id)}
            onChange={(next) =>
              set({ id: next === null ? null : Number(next), combinators: [], where_other_query: null })
            }
            searchable
            w={220}
            comboboxProps={{ withinPortal: true }}
            data-testid="query-link-select"
          />
          {value.id !== null && isSuccess && !link ? (
            <Badge color="orange" variant="light" size="lg" data-testid="query-link-missing">
              {t('queries.item_not_found')}
            </Badge>
          ) : null}
          <Select
            label={t('queries.link_empty')}
            data={[
              { value: 'EMPTY', label: t('queries.link_empty_options.EMPTY') },
              { value: 'NOT_EMPTY', label: t('queries.link_empty_options.NOT_EMPTY') },
            ]}
            value={value.where_empty_not_empty ?? null}
            onChange={(next) =>
              set({ where_empty_not_empty: (next as LinkDraft['where_empty_not_empty']) ?? null })
            }
            clearable
            w={170}
            comboboxProps={{ withinPortal: true }}
            data-testid="query-link-empty"
          />
          <NumberInput
            label={t('queries.link_min')}
            min={0}
            allowDecimal={false}
            value={value.where_min ?? ''}
            onChange={(next) => set({ where_min: countOrNull(next) })}
            w={110}
            data-testid="query-link-min"
          />
          <NumberInput
            label={t('queries.link_max')}
            min={0}
            allowDecimal={false}
            value={value.where_max ?? ''}
            onChange={(next) => set({ where_max: countOrNull(next) })}
            w={110}
            data-testid="query-link-max"
          />
          <Tooltip label={t('queries.remove_condition')}>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              mb={2}
              onClick={onRemove}
              aria-label={t('queries.remove_condition')}
              data-testid="query-link-remove"
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('queries.link_other')}
            data={[
              { value: 'IN', label: t('queries.link_other_options.IN') },
              { value: 'NOT_IN', label: t('queries.link_other_options.NOT_IN') },
            ]}
            value={value.where_other_type ?? null}
            onChange={(next) => set({ where_other_type: (next as LinkDraft['where_other_type']) ?? null })}
            clearable
            w={220}
            comboboxProps={{ withinPortal: true }}
            data-testid="query-link-other-type"
          />
          {value.where_other_type ? (
            <Select
              label={t('queries.link_other_query')}
              data={queries.map((q) => ({ value: String(q.id), label: queryName(q, locale) }))}
              value={value.where_other_query ? String(value.where_other_query) : null}
              onChange={(next) => set({ where_other_query: next === null ? null : Number(next) })}
              searchable
              w={240}
              comboboxProps={{ withinPortal: true }}
              data-testid="query-link-other-query"
            />
          ) : null}
          <Select
            label={t('queries.link_archived')}
            data={ARCHIVED.map((choice) => ({ value: choice, label: t(`queries.archived.${choice}`) }))}
            value={value.include_archived ?? null}
            onChange={(next) => set({ include_archived: (next as LinkDraft['include_archived']) ?? null })}
            clearable
            w={220}
            comboboxProps={{ withinPortal: true }}
            data-testid="query-link-archived"
          />
        </Group>
        <ConditionMessages path={path} id={value.id} />
        {child > 0 ? (
          <Stack gap="xs" pl="md">
            <Text size="sm" c="dimmed">
              {t('queries.link_groups', { link: link?.name ?? '' })}
            </Text>
            <CombinatorList
              entityId={child}
              value={value.combinators}
              onChange={(combinators) => set({ combinators })}
              path={`${path}.combinators`}
              depth={depth + 1}
            />
            {depth < QUERY_LIMITS.depth ? (
              <Button
                size="compact-sm"
                variant="light"
                w="fit-content"
                leftSection={<IconSquarePlus size={14} />}
                onClick={() => set({ combinators: [...value.combinators, newCombinator()] })}
                data-testid="query-link-add-group"
              >
                {t('queries.add_group')}
              </Button>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

export const ARCHIVED = ['none_archived', 'archived', 'both'] as const;

/** One AND / OR group: its field conditions, link conditions and nested groups. */
function CombinatorEditor({
  entityId,
  value,
  onChange,
  onRemove,
  path,
  depth,
  handle,
}: {
  entityId: number;
  value: CombinatorDraft;
  onChange: (next: CombinatorDraft) => void;
  onRemove: () => void;
  path: string;
  depth: number;
  handle: ReactNode;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<CombinatorDraft>) => onChange({ ...value, ...patch });
  const replace = <T,>(list: T[], index: number, next: T) =>
    list.map((entry, i) => (i === index ? next : entry));
  const remove = <T,>(list: T[], index: number) => list.filter((_, i) => i !== index);
  const nestable = depth < QUERY_LIMITS.depth;
  const empty = value.fields.length + value.links.length + value.combinators.length === 0;
  return (
    <Paper
      withBorder
      p="sm"
      style={{ borderLeft: `4px solid var(--mantine-color-${value.combine === 'OR' ? 'orange' : 'blue'}-6)` }}
      data-testid="query-group"
      data-combine={value.combine}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            {handle}
            <SegmentedControl
              size="xs"
              aria-label={t('queries.combine')}
              data={[
                { value: 'AND', label: t('queries.and') },
                { value: 'OR', label: t('queries.or') },
              ]}
              value={value.combine}
              onChange={(combine) => set({ combine: combine === 'OR' ? 'OR' : 'AND' })}
              data-testid="query-group-combine"
            />
            <Text size="xs" c="dimmed">
              {value.combine === 'OR' ? t('queries.or_hint') : t('queries.and_hint')}
            </Text>
          </Group>
          <Group gap={4}>
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => set({ fields: [...value.fields, newField()] })}
              data-testid="query-add-field"
            >
              {t('queries.add_field')}
            </Button>
            {nestable ? (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconLink size={14} />}
                onClick={() => set({ links: [...value.links, newLink()] })}
                data-testid="query-add-link"
              >
                {t('queries.add_link')}
              </Button>
            ) : null}
            {nestable ? (
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconSquarePlus size={14} />}
                onClick={() => set({ combinators: [...value.combinators, newCombinator()] })}
                data-testid="query-add-group"
              >
                {t('queries.add_group')}
              </Button>
            ) : null}
            <Tooltip label={t('queries.remove_group')}>
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={onRemove}
                aria-label={t('queries.remove_group')}
                data-testid="query-group-remove"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        {empty ? (
          <Text size="sm" c="dimmed">
            {t('queries.group_empty')}
          </Text>
        ) : null}
        {value.fields.map((field, index) => (
          <FieldConditionRow
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id of their own; they are only added and removed
            key={index}
            entityId={entityId}
            value={field}
            onChange={(next) => set({ fields: replace(value.fields, index, next) })}
            onRemove={() => set({ fields: remove(value.fields, index) })}
            path={`${path}.fields.${index}`}
          />
        ))}
        {value.links.map((link, index) => (
          <LinkConditionEditor
            // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id of their own; they are only added and removed
            key={index}
            entityId={entityId}
            value={link}
            onChange={(next) => set({ links: replace(value.links, index, next) })}
            onRemove={() => set({ links: remove(value.links, index) })}
            path={`${path}.links.${index}`}
            depth={depth}
          />
        ))}
        {value.combinators.length > 0 ? (
          <CombinatorList
            entityId={entityId}
            value={value.combinators}
            onChange={(combinators) => set({ combinators })}
            path={`${path}.combinators`}
            depth={depth + 1}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

function SortableCombinator(props: {
  entityId: number;
  value: CombinatorDraft;
  onChange: (next: CombinatorDraft) => void;
  onRemove: () => void;
  path: string;
  depth: number;
}) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: props.value.uuid, attributes: { roleDescription: t('queries.sortable') } });
  const handle = (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      style={{ cursor: 'grab' }}
      {...attributes}
      {...listeners}
      aria-label={t('queries.drag_group')}
      data-testid="query-group-handle"
    >
      <IconGripVertical size={16} />
    </ActionIcon>
  );
  return (
    <div
      ref={setNodeRef}
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        opacity: isDragging ? 0.7 : 1,
      }}
    >
      <CombinatorEditor {...props} handle={handle} />
    </div>
  );
}

/** Sibling groups, reordered by dragging their handle (or with the keyboard: Space, arrows, Space). */
export function CombinatorList({
  entityId,
  value,
  onChange,
  path,
  depth,
}: {
  entityId: number;
  value: CombinatorDraft[];
  onChange: (next: CombinatorDraft[]) => void;
  path: string;
  depth: number;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = value.map((c) => c.uuid);
  const position = (id: string | number | undefined) => ids.indexOf(String(id)) + 1;
  const onDragEnd = (event: DragEndEvent) => {
    const from = ids.indexOf(String(event.active.id));
    const to = event.over ? ids.indexOf(String(event.over.id)) : -1;
    if (from >= 0 && to >= 0 && from !== to) onChange(moveEntry(value, from, to));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: { draggable: t('queries.drag_instructions') },
        announcements: {
          onDragStart: ({ active }) => t('queries.drag_start', { position: position(active.id) }),
          onDragOver: ({ over }) =>
            over ? t('queries.drag_over', { position: position(over.id) }) : undefined,
          onDragEnd: ({ over }) =>
            over ? t('queries.drag_end', { position: position(over.id) }) : undefined,
          onDragCancel: () => t('queries.drag_cancel'),
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <Stack gap="xs">
          {value.map((combinator, index) => (
            <SortableCombinator
              key={combinator.uuid}
              entityId={entityId}
              value={combinator}
              onChange={(next) => onChange(value.map((c, i) => (i === index ? next : c)))}
              onRemove={() => onChange(value.filter((_, i) => i !== index))}
              path={`${path}.${index}`}
              depth={depth}
            />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}
