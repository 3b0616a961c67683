import {
  type DefField,
  defFieldCreateSchema,
  ENTITY_MESSAGES,
  FIELD_TYPE_NAMES,
  type ListOption,
} from '@dossierbase/core';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  ColorInput,
  Group,
  Modal,
  NumberInput,
  Progress,
  ScrollArea,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle, IconArrowDown, IconArrowUp, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { notifyError } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { useEnvironment } from '../environments/environment-store';
import {
  adminKeys,
  createItem,
  deleteItem,
  patchItem,
  pickTranslation,
  putItem,
  useEnvironmentId,
  useListOptions,
  useRefreshAdmin,
  useRoles,
} from './admin-api';
import { type Errors, environmentCultures, GeneralError, serverErrors, validate } from './form-helpers';
import { SaveCancelButtons } from './save-cancel-buttons';
import { SettingsFields, settingsWithDefaults } from './settings-fields';

export function useBaseField(id: number) {
  return useQuery({
    queryKey: adminKeys.one('deffield', id),
    queryFn: () => api.get<DefField>(`/deffield/${id}`),
    enabled: id > 0,
  });
}

interface BaseFieldModalProps {
  opened: boolean;
  onClose: () => void;
  /** 0 or undefined: a new base field. */
  fieldId?: number;
  /** The entity the designer shows: its usage row comes first, marked Current. */
  currentEntity?: number;
  onSaved?: (field: DefField) => void;
}

export function BaseFieldModal({
  opened,
  onClose,
  fieldId = 0,
  currentEntity,
  onSaved,
}: BaseFieldModalProps) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const refresh = useRefreshAdmin();
  const { data: field } = useBaseField(opened ? fieldId : 0);
  const [tab, setTab] = useState<string | null>('generic');
  const [name, setName] = useState('');
  const [type, setType] = useState<string>('text');
  const [rank, setRank] = useState<number>(0);
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [duplicateOpen, setDuplicateOpen] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened or once the record has loaded, not on refetches
  useEffect(() => {
    if (!opened) return;
    setTab('generic');
    setErrors({});
    setName(field?.name ?? '');
    setType(field?.type ?? 'text');
    setRank(field?.rank ?? 0);
    setSettings(settingsWithDefaults(field?.type ?? 'text', field?.settings));
  }, [opened, field?.id]);

  const placed = !!field?.usage?.some((usage) => usage.placed);
  const usage = [...(field?.usage ?? [])].sort(
    (a, b) => Number(b.def_dossier_id === currentEntity) - Number(a.def_dossier_id === currentEntity),
  );

  const save = async () => {
    const body = { environment, name, type, settings, rank };
    const invalid = validate(defFieldCreateSchema, body, t);
    if (invalid) {
      setErrors(invalid);
      setTab(invalid.name || invalid.type ? 'generic' : 'misc');
      return;
    }
    setBusy(true);
    try {
      const saved = field
        ? await patchItem<DefField>('deffield', field.id, {
            name,
            type: placed ? undefined : type,
            settings,
            rank,
          })
        : await createItem<DefField>('deffield', body);
      await refresh();
      onSaved?.(saved);
      onClose();
    } catch (error) {
      const next = serverErrors(error, t);
      setErrors(next);
      if (next.name || next.type) setTab('generic');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!field) return;
    setBusy(true);
    try {
      await deleteItem('deffield', field.id);
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  const listType = type === 'list' || type === 'tree';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={field ? t('admin.base_field.edit_title') : t('admin.base_field.add_title')}
      data-testid="base-field-modal"
    >
      <Stack>
        {placed && (
          <Alert color="yellow" icon={<IconAlertCircle size={16} />} data-testid="base-field-placed">
            {t('admin.base_field.placed_warning')}
          </Alert>
        )}
        <GeneralError errors={errors} />
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab
              value="generic"
              rightSection={errors.name || errors.type ? <IconAlertCircle size={14} color="red" /> : null}
            >
              {t('admin.tabs.generic')}
            </Tabs.Tab>
            <Tabs.Tab value="misc">{t('admin.tabs.misc')}</Tabs.Tab>
            {listType && field && <Tabs.Tab value="options">{t('admin.tabs.options')}</Tabs.Tab>}
            {field && <Tabs.Tab value="info">{t('admin.tabs.info')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="generic" pt="sm">
            <Stack>
              <TextInput
                label={t('admin.name')}
                required
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={errors.name}
                data-testid="base-field-name"
              />
              <Select
                label={t('admin.type')}
                required
                data={[...FIELD_TYPE_NAMES]}
                value={type}
                onChange={(next) => {
                  setType(next ?? 'text');
                  setSettings(settingsWithDefaults(next ?? 'text', {}));
                }}
                disabled={placed}
                error={errors.type}
                searchable
                data-testid="base-field-type"
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="misc" pt="sm">
            <Stack>
              <SettingsFields type={type} value={settings} onChange={setSettings} errors={errors} />
              <NumberInput
                label={t('admin.rank')}
                min={0}
                value={rank}
                onChange={(next) => setRank(Number(next) || 0)}
                error={errors.rank}
              />
            </Stack>
          </Tabs.Panel>
          {listType && field && (
            <Tabs.Panel value="options" pt="sm">
              <ListOptionsEditor defField={field.id} />
            </Tabs.Panel>
          )}
          <Tabs.Panel value="info" pt="sm">
            <ScrollArea.Autosize mah={250}>
              <Table striped data-testid="base-field-usage">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('admin.entity')}</Table.Th>
                    <Table.Th>{t('admin.data_field.title')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {usage.map((row) => (
                    <Table.Tr key={row.def_dossier_def_field_id}>
                      <Table.Td>
                        {row.def_dossier_name}{' '}
                        {row.def_dossier_id === currentEntity && (
                          <Badge size="xs">{t('admin.base_field.current')}</Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{row.def_dossier_def_field_name}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </Tabs.Panel>
        </Tabs>
        <Group justify="space-between">
          <Group>
            {field && (
              <Tooltip label={ENTITY_MESSAGES.placedFieldDelete} disabled={!placed}>
                <span>
                  <Button
                    color="red"
                    variant="light"
                    disabled={placed || busy}
                    onClick={remove}
                    data-testid="base-field-delete"
                  >
                    {t('admin.delete')}
                  </Button>
                </span>
              </Tooltip>
            )}
            {field && (
              <Button
                variant="light"
                onClick={() => setDuplicateOpen(true)}
                data-testid="base-field-duplicate"
              >
                {t('admin.base_field.duplicate')}
              </Button>
            )}
          </Group>
          <SaveCancelButtons onCancel={onClose} onSave={save} busy={busy} saveTestId="base-field-save" />
        </Group>
        {placed && field && (
          <Text size="xs" c="dimmed">
            {t('admin.base_field.cannot_delete_placed')}
          </Text>
        )}
      </Stack>
      {field && (
        <DuplicateModal
          opened={duplicateOpen}
          onClose={() => setDuplicateOpen(false)}
          field={field}
          currentEntity={currentEntity}
        />
      )}
    </Modal>
  );
}

/** Copies the base field to the data fields of other entities: one PUT per chosen data field. */
function DuplicateModal({
  opened,
  onClose,
  field,
  currentEntity,
}: {
  opened: boolean;
  onClose: () => void;
  field: DefField;
  currentEntity?: number;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshAdmin();
  const [chosen, setChosen] = useState<number[]>([]);
  const [done, setDone] = useState(0);
  const [state, setState] = useState<'idle' | 'updating' | 'success' | 'error'>('idle');
  const usage = [...field.usage].sort(
    (a, b) => Number(b.def_dossier_id === currentEntity) - Number(a.def_dossier_id === currentEntity),
  );

  useEffect(() => {
    if (opened) {
      setChosen([]);
      setDone(0);
      setState('idle');
    }
  }, [opened]);

  const run = async () => {
    setState('updating');
    setDone(0);
    try {
      for (const id of chosen) {
        await putItem('defdossierdeffield', id, { defField: field.id });
        setDone((count) => count + 1);
      }
      await refresh();
      setState('success');
      setTimeout(onClose, 600);
    } catch {
      setState('error');
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('admin.base_field.duplicate')}
      data-testid="duplicate-modal"
    >
      <Stack>
        <ScrollArea.Autosize mah={150}>
          <Stack gap="xs">
            {usage.map((row) => (
              <Tooltip key={row.def_dossier_def_field_id} label={row.def_dossier_name}>
                <Checkbox
                  label={`${row.def_dossier_name} / ${row.def_dossier_def_field_name}`}
                  checked={chosen.includes(row.def_dossier_def_field_id)}
                  onChange={(event) =>
                    setChosen((list) =>
                      event.currentTarget.checked
                        ? [...list, row.def_dossier_def_field_id]
                        : list.filter((id) => id !== row.def_dossier_def_field_id),
                    )
                  }
                />
              </Tooltip>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {state === 'updating' && (
          <Progress
            value={chosen.length ? (done / chosen.length) * 100 : 100}
            data-testid="duplicate-progress"
          />
        )}
        {state === 'success' && (
          <Alert color="green" data-testid="duplicate-success">
            {t('admin.saved')}
          </Alert>
        )}
        {state === 'error' && <Alert color="red">{t('common.something_went_wrong')}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={run} disabled={chosen.length === 0} loading={state === 'updating'}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The options of a list or tree field, each edited in the list option editor. */
export function ListOptionsEditor({ defField }: { defField: number }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: options = [] } = useListOptions(defField);
  const [editing, setEditing] = useState<ListOption | 'new' | null>(null);
  const sorted = [...options].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const refresh = useRefreshAdmin();
  /** Swaps two neighbours and saves all ranks at once (PATCH /deffieldlist {ranks}). */
  const move = async (index: number, step: -1 | 1) => {
    const order = [...sorted];
    [order[index], order[index + step]] = [order[index + step], order[index]];
    try {
      await api.patch('/deffieldlist', { ranks: order.map((option, rank) => ({ id: option.id, rank })) });
    } catch (error) {
      notifyError(error, t);
    }
    await refresh();
  };
  return (
    <Stack gap="xs" data-testid="list-options">
      <Table>
        <Table.Tbody>
          {sorted.map((option, index) => (
            <Table.Tr key={option.id} data-testid={`list-option-${option.id}`}>
              <Table.Td w={24}>
                <div
                  style={{
                    width: 16,
                    height: 16,
                    borderRadius: 4,
                    background: option.color ?? 'transparent',
                  }}
                />
              </Table.Td>
              <Table.Td>{pickTranslation(option.translations, locale)?.text}</Table.Td>
              <Table.Td>{option.rank}</Table.Td>
              <Table.Td>
                <Group gap={2} wrap="nowrap">
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t('admin.move_up')}
                  >
                    <IconArrowUp size={14} />
                  </ActionIcon>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={index === sorted.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t('admin.move_down')}
                  >
                    <IconArrowDown size={14} />
                  </ActionIcon>
                </Group>
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" onClick={() => setEditing(option)}>
                  {t('admin.edit')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} />}
        onClick={() => setEditing('new')}
        data-testid="list-option-add"
      >
        {t('admin.list_option.add')}
      </Button>
      <ListOptionModal
        opened={editing !== null}
        option={editing === 'new' ? null : editing}
        defField={defField}
        nextRank={sorted.length ? sorted[sorted.length - 1].rank + 1 : 0}
        onClose={() => setEditing(null)}
      />
    </Stack>
  );
}

function ListOptionModal({
  opened,
  option,
  defField,
  nextRank,
  onClose,
}: {
  opened: boolean;
  option: ListOption | null;
  defField: number;
  nextRank: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const environmentRecord = useEnvironment();
  const environment = environmentRecord?.id ?? 0;
  const cultures = environmentCultures(environmentRecord?.locales);
  const refresh = useRefreshAdmin();
  const { data: roles = [] } = useRoles();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [color, setColor] = useState('');
  const [rank, setRank] = useState(0);
  const [hiddenFor, setHiddenFor] = useState<number[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setTexts(Object.fromEntries((option?.translations ?? []).map((tr) => [tr.culture, tr.text])));
    setColor(option?.color ?? '');
    setRank(option?.rank ?? nextRank);
    setHiddenFor(option?.settings?.roles ?? []);
  }, [opened, option, nextRank]);

  const save = async () => {
    const first = Object.values(texts).find((text) => text.trim()) ?? '';
    const translations = cultures.map((culture) => ({ culture, text: texts[culture]?.trim() || first }));
    const body = {
      environment,
      defField,
      color: color || null,
      rank,
      default: option?.default ?? false,
      translations,
      settings: { ...(option?.settings ?? {}), roles: hiddenFor },
    };
    if (!first) {
      setErrors({ translations: t('validation.required') });
      return;
    }
    setBusy(true);
    try {
      if (option) await patchItem('deffieldlist', option.id, { ...body, environment: undefined });
      else await createItem('deffieldlist', body);
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!option) return;
    await deleteItem('deffieldlist', option.id).catch((error) => setErrors(serverErrors(error, t)));
    await refresh();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('admin.list_option.title')}
      data-testid="list-option-modal"
    >
      <Stack>
        <GeneralError errors={errors} />
        <Tabs defaultValue="generic">
          <Tabs.List>
            <Tabs.Tab value="generic">{t('admin.tabs.generic')}</Tabs.Tab>
            <Tabs.Tab value="layout">{t('admin.tabs.layout')}</Tabs.Tab>
            <Tabs.Tab value="visibility">{t('admin.tabs.visibility')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="generic" pt="sm">
            <Stack>
              {cultures.map((culture, index) => (
                <TextInput
                  key={culture}
                  label={`${t('admin.list_option.text')} (${culture})`}
                  required={index === 0}
                  value={texts[culture] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setTexts((all) => ({ ...all, [culture]: value }));
                  }}
                  error={index === 0 ? errors.translations : undefined}
                  data-testid={`list-option-text-${culture}`}
                />
              ))}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="layout" pt="sm">
            <Stack>
              <ColorInput
                label={t('admin.list_option.color')}
                value={color}
                onChange={setColor}
                error={errors.color}
                data-testid="list-option-color"
              />
              <NumberInput
                label={t('admin.rank')}
                min={0}
                value={rank}
                onChange={(next) => setRank(Math.max(0, Number(next) || 0))}
                error={errors.rank}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="visibility" pt="sm">
            <Text size="sm" c="dimmed" mb="xs">
              {t('admin.list_option.hidden_for')}
            </Text>
            <Stack gap={4}>
              {roles.map((role) => (
                <Checkbox
                  key={role.id}
                  label={role.name}
                  checked={hiddenFor.includes(role.id)}
                  onChange={(event) =>
                    setHiddenFor((list) =>
                      event.currentTarget.checked ? [...list, role.id] : list.filter((id) => id !== role.id),
                    )
                  }
                />
              ))}
            </Stack>
          </Tabs.Panel>
        </Tabs>
        <Group justify="space-between">
          <div>
            {option && (
              <Button color="red" variant="light" onClick={remove}>
                {t('admin.delete')}
              </Button>
            )}
          </div>
          <SaveCancelButtons onCancel={onClose} onSave={save} busy={busy} saveTestId="list-option-save" />
        </Group>
      </Stack>
    </Modal>
  );
}
