import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import {
  type DefDossierDefField,
  type DisplayItem,
  type DisplayPosition,
  displayCustomViewCreateSchema,
} from '@dossierbase/core';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import {
  IconArrowLeft,
  IconArrowRight,
  IconEdit,
  IconGripVertical,
  IconLink,
  IconPlus,
  IconSettings,
  IconTable,
  IconTextPlus,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { notifyError, notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { NotFoundPage } from '../../app/not-found-page';
import { useEnvironment } from '../environments/environment-store';
import {
  createItem,
  deleteItem,
  entityName,
  patchItem,
  pickTranslation,
  useCustomViews,
  useDisplayItems,
  useEntities,
  useEntity,
  useEnvironmentId,
  usePositions,
  useRefreshAdmin,
} from './admin-api';
import { AdminOnly } from './admin-guard';
import { BaseFieldModal } from './base-field-modal';
import { AutoDisplayModal, DataFieldModal } from './data-field-modal';
import { EntityStructure } from './datastructure-pages';
import { DisplayItemModal } from './display-item-modal';
import { type Errors, environmentCultures, GeneralError, serverErrors, validate } from './form-helpers';
import { DESIGNER_VIEWS, layoutRows, minimumSpan, movePlacements, movePosition } from './grid';
import { LinkFieldModal } from './link-field-modal';
import { SaveCancelButtons } from './save-cancel-buttons';

const POSITION_ORDER = ['main_content', 'tab', 'hide', 'meta', 'footer'];

type Editor =
  | { kind: 'data'; id?: number }
  | { kind: 'base'; id?: number }
  | { kind: 'link'; id?: number }
  | { kind: 'display'; item?: DisplayItem; position?: number; rank?: number }
  | { kind: 'position'; position?: DisplayPosition }
  | { kind: 'views' }
  | null;

export function FieldDesignerPage() {
  const [params] = useSearchParams();
  return <AdminOnly>{params.get('editData') === '1' ? <EntityStructure /> : <FieldDesigner />}</AdminOnly>;
}

export function itemLabel(item: DisplayItem, locale: string | null): string {
  const name = pickTranslation(item.translations, locale)?.name;
  if (name) return name;
  if (item.def_dossier_def_field) return item.def_dossier_def_field.name;
  if (item.def_dossier_link) return item.def_dossier_link.name;
  if (item.settings?.dossier_data) return String(item.settings.dossier_data);
  return `#${item.id}`;
}

function FieldDesigner() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const id = Number(useParams().id);
  const { data: entity, error: entityError } = useEntity(id);
  const { data: positions, isLoading } = usePositions(id);
  const { data: items = [] } = useDisplayItems(id);
  const [tab, setTab] = useState<string | null>(null);
  const [editor, setEditor] = useState<Editor>(null);
  const [created, setCreated] = useState<DefDossierDefField | null>(null);

  const sorted = [...(positions ?? [])].sort(
    (a, b) =>
      POSITION_ORDER.indexOf(a.type) - POSITION_ORDER.indexOf(b.type) || a.rank - b.rank || a.id - b.id,
  );
  useEffect(() => {
    if (sorted.length && !sorted.some((p) => String(p.id) === tab)) setTab(String(sorted[0].id));
  }, [sorted, tab]);
  const activePosition = Number(tab) || undefined;
  const close = () => setEditor(null);

  if (isApiError(entityError, 404)) return <NotFoundPage />;
  return (
    <Stack data-testid="field-designer">
      <Group justify="space-between">
        <Title order={3}>
          {t('admin.designer.title')}: {entityName(entity, locale)}
        </Title>
        <Group gap="xs">
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setEditor({ kind: 'data' })}
            data-testid="designer-add-data-field"
          >
            {t('admin.designer.add_data_field')}
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconLink size={14} />}
            onClick={() => setEditor({ kind: 'link' })}
            data-testid="designer-add-link-field"
          >
            {t('admin.designer.add_link_field')}
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconTextPlus size={14} />}
            onClick={() => setEditor({ kind: 'display', position: activePosition })}
            data-testid="designer-add-display-field"
          >
            {t('admin.designer.add_display_field')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconTable size={14} />}
            onClick={() => setEditor({ kind: 'views' })}
            data-testid="designer-custom-views"
          >
            {t('admin.designer.custom_views')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            component={Link}
            to={`/fieldeditor/${id}?editData=1`}
            data-testid="designer-data-editor"
          >
            {t('admin.designer.data_editor')}
          </Button>
          <Button size="xs" variant="subtle" component={Link} to={`/defdossier/edit/${id}`}>
            {t('admin.entity_edit.title')}
          </Button>
        </Group>
      </Group>
      {isLoading && <Loader />}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          {sorted.map((position) => (
            <Tabs.Tab
              key={position.id}
              value={String(position.id)}
              data-testid={`designer-tab-${position.id}`}
            >
              {pickTranslation(position.translations, locale)?.name ||
                t(`admin.position.types.${position.type}`)}
              <Badge size="xs" variant="light" ml={6}>
                {t(`admin.position.types.${position.type}`)}
              </Badge>
            </Tabs.Tab>
          ))}
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconPlus size={12} />}
            onClick={() => setEditor({ kind: 'position' })}
            data-testid="designer-add-position"
            style={{ alignSelf: 'center' }}
          >
            {t('admin.position.add')}
          </Button>
        </Tabs.List>
        {sorted.map((position) => (
          <Tabs.Panel key={position.id} value={String(position.id)} pt="md">
            <PositionToolbar
              position={position}
              positions={sorted}
              onEdit={() => setEditor({ kind: 'position', position })}
            />
            <PositionGrid
              position={position}
              items={items.filter(
                (item) =>
                  item.display_position_id === position.id &&
                  (DESIGNER_VIEWS as readonly string[]).includes(item.view),
              )}
              onEdit={setEditor}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
      {positions && sorted.length === 0 && (
        <Alert color="blue" data-testid="designer-no-positions">
          {t('admin.designer.no_positions')}
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        {t('admin.designer.drag_hint')}
      </Text>

      <DataFieldModal
        opened={editor?.kind === 'data'}
        onClose={close}
        defDossier={id}
        fieldId={editor?.kind === 'data' ? editor.id : undefined}
        onCreated={setCreated}
      />
      <AutoDisplayModal
        field={created}
        defDossier={id}
        defaultPosition={activePosition}
        onClose={() => setCreated(null)}
      />
      <BaseFieldModal
        opened={editor?.kind === 'base'}
        onClose={close}
        fieldId={editor?.kind === 'base' ? editor.id : undefined}
        currentEntity={id}
      />
      <LinkFieldModal
        opened={editor?.kind === 'link'}
        onClose={close}
        defDossier={id}
        linkId={editor?.kind === 'link' ? editor.id : undefined}
      />
      <DisplayItemModal
        opened={editor?.kind === 'display'}
        onClose={close}
        defDossier={id}
        item={editor?.kind === 'display' ? editor.item : undefined}
        defaultPosition={editor?.kind === 'display' ? editor.position : undefined}
        defaultRank={editor?.kind === 'display' ? editor.rank : undefined}
      />
      <PositionModal
        opened={editor?.kind === 'position'}
        onClose={close}
        defDossier={id}
        count={sorted.length}
        position={editor?.kind === 'position' ? editor.position : undefined}
      />
      <CustomViewsModal opened={editor?.kind === 'views'} onClose={close} defDossier={id} />
    </Stack>
  );
}

function PositionGrid({
  position,
  items,
  onEdit,
}: {
  position: DisplayPosition;
  items: DisplayItem[];
  onEdit: (editor: Editor) => void;
}) {
  const { t } = useTranslation();
  const { width } = useViewportSize();
  const refresh = useRefreshAdmin();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const [saving, setSaving] = useState(false);
  const minSpan = minimumSpan(width || 1200);
  const rows = layoutRows(items, minSpan);
  const ids = rows.flat().map((cell) => cell.item.id);
  const lastRank = items.reduce((max, item) => Math.max(max, item.rank), 0);

  const onDragEnd = async (event: DragEndEvent) => {
    const activeId = Number(event.active.id);
    const overId = event.over?.id;
    if (overId === undefined || overId === activeId) return;
    const placements = movePlacements(
      items,
      activeId,
      overId === `new-row-${position.id}` ? { newRow: true } : { itemId: Number(overId) },
    );
    if (placements.length === 0) return;
    setSaving(true);
    try {
      for (const placement of placements) {
        await patchItem('displayitem', placement.id, { rank: placement.rank, col: placement.col });
      }
    } catch (error) {
      notifyError(error, t);
    } finally {
      await refresh();
      setSaving(false);
    }
  };

  return (
    <Stack gap="xs" data-testid={`designer-grid-${position.id}`}>
      {items.length === 0 && (
        <Text c="dimmed" size="sm" data-testid="designer-empty">
          {t('admin.designer.empty_position')}
        </Text>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={rectSortingStrategy}>
          {rows.map((row) => (
            <Box
              key={row[0].item.rank}
              style={{ display: 'grid', gridTemplateColumns: 'repeat(12, minmax(0, 1fr))', gap: 8 }}
              data-testid="designer-row"
            >
              {row.map((cell) => (
                <GridItem
                  key={cell.item.id}
                  item={cell.item}
                  col={cell.col}
                  span={cell.span}
                  onEdit={onEdit}
                />
              ))}
            </Box>
          ))}
        </SortableContext>
        <NewRowZone id={`new-row-${position.id}`} />
      </DndContext>
      <Group>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          onClick={() => onEdit({ kind: 'display', position: position.id, rank: lastRank + 1 })}
          data-testid={`designer-add-item-${position.id}`}
        >
          {t('admin.designer.add_display_field')}
        </Button>
        {saving && <Loader size="xs" />}
      </Group>
    </Stack>
  );
}

function NewRowZone({ id }: { id: string }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <Box
      ref={setNodeRef}
      p={6}
      style={{
        border: '1px dashed var(--mantine-color-gray-4)',
        borderRadius: 6,
        background: isOver ? 'var(--mantine-color-blue-0)' : undefined,
        textAlign: 'center',
      }}
      data-testid="designer-new-row"
    >
      <Text size="xs" c="dimmed">
        {t('admin.designer.new_row')}
      </Text>
    </Box>
  );
}

function GridItem({
  item,
  col,
  span,
  onEdit,
}: {
  item: DisplayItem;
  col: number;
  span: number;
  onEdit: (editor: Editor) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
  });
  const field = item.def_dossier_def_field;
  const link = item.def_dossier_link;
  const type =
    field?.def_field.type ?? (link ? 'link' : item.settings?.dossier_data ? 'dossier data' : 'block');
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      radius="sm"
      shadow={isDragging ? 'md' : undefined}
      style={{
        gridColumn: `${col} / span ${span}`,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        opacity: isDragging ? 0.6 : 1,
        background: 'var(--mantine-color-body)',
      }}
      data-testid={`designer-item-${item.id}`}
    >
      <Group gap={6} wrap="nowrap" justify="space-between">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            {...attributes}
            {...listeners}
            aria-label={t('admin.designer.drag')}
            data-testid={`designer-drag-${item.id}`}
            style={{ cursor: 'grab' }}
          >
            <IconGripVertical size={14} />
          </ActionIcon>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {itemLabel(item, locale)}
              {(field?.obligatory || link?.obligatory) && <span style={{ color: 'red' }}> *</span>}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {type} · {item.view} · {item.colspan}/12
            </Text>
          </Stack>
        </Group>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" size="sm" data-testid={`designer-cog-${item.id}`} aria-label="cog">
              <IconSettings size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => onEdit({ kind: 'display', item })} data-testid="cog-display">
              {t('admin.cog.display')}
            </Menu.Item>
            {field && (
              <Menu.Item onClick={() => onEdit({ kind: 'data', id: field.id })} data-testid="cog-data">
                {t('admin.cog.data')}
              </Menu.Item>
            )}
            {field && (
              <Menu.Item
                onClick={() => onEdit({ kind: 'base', id: field.def_field.id })}
                data-testid="cog-base"
              >
                {t('admin.cog.base')}
              </Menu.Item>
            )}
            {link && (
              <Menu.Item onClick={() => onEdit({ kind: 'link', id: link.id })} data-testid="cog-link">
                {t('admin.cog.link')}
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}

function PositionToolbar({
  position,
  positions,
  onEdit,
}: {
  position: DisplayPosition;
  positions: readonly DisplayPosition[];
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshAdmin();
  const [busy, setBusy] = useState(false);
  const move = async (step: -1 | 1) => {
    const changes = movePosition(positions, position, step);
    if (changes.length === 0) return;
    setBusy(true);
    try {
      for (const change of changes) await patchItem('displayposition', change.id, { rank: change.rank });
      await refresh();
    } catch (error) {
      notifyError(error, t);
    } finally {
      setBusy(false);
    }
  };
  const group = positions.filter((p) => p.type === position.type);
  const index = group.findIndex((p) => p.id === position.id);
  return (
    <Group
      gap={4}
      justify="flex-end"
      mb="xs"
      data-testid="designer-position-toolbar"
      data-position-id={position.id}
    >
      {position.hide && (
        <Badge color="gray" variant="light" data-testid="designer-position-hidden">
          {t('admin.position.hide')}
        </Badge>
      )}
      <ActionIcon
        variant="subtle"
        size="sm"
        disabled={busy || index <= 0}
        onClick={() => move(-1)}
        aria-label={t('admin.position.move_up')}
        title={t('admin.position.move_up')}
        data-testid="designer-position-up"
      >
        <IconArrowLeft size={14} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        size="sm"
        disabled={busy || index < 0 || index >= group.length - 1}
        onClick={() => move(1)}
        aria-label={t('admin.position.move_down')}
        title={t('admin.position.move_down')}
        data-testid="designer-position-down"
      >
        <IconArrowRight size={14} />
      </ActionIcon>
      <Button
        size="compact-xs"
        variant="subtle"
        leftSection={<IconEdit size={12} />}
        onClick={onEdit}
        data-testid="designer-position-edit"
      >
        {t('admin.position.edit')}
      </Button>
    </Group>
  );
}

function PositionModal({
  opened,
  onClose,
  defDossier,
  count,
  position,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  count: number;
  position?: DisplayPosition;
}) {
  const { t } = useTranslation();
  const environmentRecord = useEnvironment();
  const cultures = environmentCultures(environmentRecord?.locales);
  const refresh = useRefreshAdmin();
  const [type, setType] = useState<string>('tab');
  const [name, setName] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [hide, setHide] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures are fixed while the modal is open
  useEffect(() => {
    if (opened) {
      setType(position?.type ?? (count === 0 ? 'main_content' : 'tab'));
      setName('');
      setNames(
        Object.fromEntries(
          cultures.map((culture) => [
            culture,
            position?.translations.find((tr) => tr.culture === culture)?.name ?? '',
          ]),
        ),
      );
      setHide(position?.hide ?? false);
      setErrors({});
    }
  }, [opened, count, position]);

  const save = async () => {
    if (position) {
      const first = cultures.map((culture) => names[culture]?.trim()).find(Boolean);
      if (!first) return setErrors({ [`name_${cultures[0]}`]: t('validation.required') });
      setBusy(true);
      try {
        await patchItem('displayposition', position.id, {
          type,
          hide,
          translations: cultures.map((culture) => {
            const before = position.translations.find((tr) => tr.culture === culture);
            return {
              culture,
              name: names[culture]?.trim() || first,
              ...(before?.name_plural ? { name_plural: before.name_plural } : {}),
            };
          }),
        });
        await refresh();
        onClose();
      } catch (error) {
        setErrors(serverErrors(error, t));
      } finally {
        setBusy(false);
      }
      return;
    }
    if (!name.trim()) return setErrors({ name: t('validation.required') });
    setBusy(true);
    try {
      await createItem('displayposition', {
        environment: environmentRecord?.id,
        defDossier,
        uuid: crypto.randomUUID(),
        type,
        rank: count,
        translations: cultures.map((culture) => ({ culture, name: name.trim() })),
      });
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!position || !window.confirm(t('admin.position.delete_confirm'))) return;
    setBusy(true);
    try {
      await deleteItem('displayposition', position.id);
      await refresh();
      notifySuccess(t('admin.saved'));
      onClose();
    } catch (error) {
      // The server refuses while display items are in the position; its message says so.
      const found = serverErrors(error, t);
      const message = found.displayPosition ?? Object.values(found)[0];
      setErrors(message ? { _: message } : found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={position ? t('admin.position.edit') : t('admin.position.add')}
      data-testid="position-modal"
    >
      <Stack>
        <GeneralError errors={errors} />
        <Select
          label={t('admin.type')}
          data={['main_content', 'tab', 'meta', 'footer'].map((value) => ({
            value,
            label: t(`admin.position.types.${value}`),
          }))}
          value={type}
          onChange={(next) => setType(next ?? 'tab')}
          error={errors.type}
          data-testid="position-type"
        />
        {position ? (
          <>
            {cultures.map((culture, index) => (
              <TextInput
                key={culture}
                label={`${t('admin.name')} (${culture})`}
                required={index === 0}
                value={names[culture] ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setNames((all) => ({ ...all, [culture]: value }));
                }}
                error={index === 0 ? (errors[`name_${culture}`] ?? errors.translations) : undefined}
                data-testid={`position-name-${culture}`}
              />
            ))}
            <Switch
              label={t('admin.position.hide')}
              checked={hide}
              onChange={(event) => setHide(event.currentTarget.checked)}
              data-testid="position-hide"
            />
          </>
        ) : (
          <TextInput
            label={t('admin.name')}
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name ?? errors.translations}
            data-testid="position-name"
          />
        )}
        <Group justify="space-between">
          {position ? (
            <Button color="red" variant="light" onClick={remove} loading={busy} data-testid="position-delete">
              {t('admin.position.delete')}
            </Button>
          ) : (
            <span />
          )}
          <SaveCancelButtons onCancel={onClose} onSave={save} busy={busy} saveTestId="position-save" />
        </Group>
      </Stack>
    </Modal>
  );
}

function CustomViewsModal({
  opened,
  onClose,
  defDossier,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironmentId();
  const refresh = useRefreshAdmin();
  const { data: views = [] } = useCustomViews(defDossier);
  const { data: entities = [] } = useEntities();
  const [viewName, setViewName] = useState('');
  const [entity, setEntity] = useState<string | null>(String(defDossier));
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (opened) {
      setViewName('');
      setEntity(String(defDossier));
      setErrors({});
    }
  }, [opened, defDossier]);

  const save = async () => {
    const body = { environment, defDossier: Number(entity), viewName: viewName.trim() };
    const invalid = validate(displayCustomViewCreateSchema, body, t);
    if (invalid) return setErrors(invalid);
    try {
      await createItem('displaycustomview', body);
      await refresh();
      setViewName('');
    } catch (error) {
      setErrors(serverErrors(error, t));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('admin.designer.custom_views')}
      data-testid="custom-views-modal"
    >
      <Stack>
        <Table>
          <Table.Tbody>
            {views.map((view) => (
              <Table.Tr key={view.id}>
                <Table.Td>{view.view_name}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <GeneralError errors={errors} />
        <TextInput
          label={t('admin.name')}
          value={viewName}
          onChange={(event) => setViewName(event.currentTarget.value)}
          error={errors.viewName}
          data-testid="custom-view-name"
        />
        <Select
          label={t('admin.entity')}
          searchable
          data={entities.map((e) => ({ value: String(e.id), label: entityName(e, locale) }))}
          value={entity}
          onChange={setEntity}
          error={errors.defDossier}
        />
        <Group justify="flex-end">
          <SaveCancelButtons
            onCancel={onClose}
            onSave={save}
            saveTestId="custom-view-save"
            cancelLabel={t('common.close')}
          />
        </Group>
      </Stack>
    </Modal>
  );
}
