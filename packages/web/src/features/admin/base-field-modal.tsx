import { type DefField, defFieldCreateSchema, ENTITY_MESSAGES, FIELD_TYPE_NAMES } from '@dossierbase/core';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  ScrollArea,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createItem,
  deleteItem,
  patchItem,
  useBaseField,
  useEnvironmentId,
  useRefreshAdmin,
} from './admin-api';
import { DuplicateModal } from './duplicate-base-field-modal';
import { type Errors, GeneralError, serverErrors, validate } from './form-helpers';
import { ListOptionsEditor } from './list-options-editor';
import { SaveCancelButtons } from './save-cancel-buttons';
import { SettingsFields, settingsWithDefaults } from './settings-fields';

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
