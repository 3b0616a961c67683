import {
  type DefDossierDefField,
  type DefField,
  defDossierDefFieldCreateSchema,
  ENTITY_MESSAGES,
  FIELD_TYPE_NAMES,
  sanitiseFieldName,
} from '@dossierbase/core';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { useEnvironment } from '../environments/environment-store';
import {
  adminKeys,
  createItem,
  newUuid,
  pickTranslation,
  putItem,
  useBaseField,
  useBaseFields,
  useEnvironmentId,
  usePositions,
  useRefreshAdmin,
} from './admin-api';
import { type Errors, environmentCultures, GeneralError, serverErrors, validate } from './form-helpers';
import { SaveCancelButtons } from './save-cancel-buttons';
import { SettingsFields } from './settings-fields';

interface DataFieldModalProps {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  fieldId?: number;
  onCreated?: (field: DefDossierDefField) => void;
}

export function DataFieldModal({ opened, onClose, defDossier, fieldId = 0, onCreated }: DataFieldModalProps) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const refresh = useRefreshAdmin();
  const { data: baseFields = [] } = useBaseFields();
  const { data: field } = useQuery({
    queryKey: adminKeys.one('defdossierdeffield', fieldId),
    queryFn: () => api.get<DefDossierDefField>(`/defdossierdeffield/${fieldId}`),
    enabled: opened && fieldId > 0,
  });
  const [tab, setTab] = useState<string | null>('default');
  const [name, setName] = useState('');
  const [defField, setDefField] = useState<number | null>(null);
  const [createBase, setCreateBase] = useState(false);
  const [newType, setNewType] = useState<string>('text');
  const [obligatory, setObligatory] = useState(false);
  const [locked, setLocked] = useState(false);
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const { data: baseField } = useBaseField(defField ?? 0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened or once the record has loaded, not on refetches
  useEffect(() => {
    if (!opened) return;
    setTab('default');
    setErrors({});
    setName(field?.name ?? '');
    setDefField(field?.def_field.id ?? null);
    setCreateBase(false);
    setNewType('text');
    setObligatory(field?.obligatory ?? false);
    setLocked(field?.locked ?? false);
    setSettings(field?.settings ?? {});
  }, [opened, field?.id]);

  const savedLocked = !!field?.locked;
  const listFixed = !!field && ['list', 'tree'].includes(field.def_field.type);
  const type = createBase ? newType : (baseField?.type ?? field?.def_field.type ?? '');

  const save = async () => {
    const cleanName = sanitiseFieldName(name);
    setBusy(true);
    try {
      let base = defField;
      if (createBase && !field) {
        if (!cleanName) {
          setErrors({ name: t('validation.required') });
          return;
        }
        const created = await createItem<DefField>('deffield', {
          environment,
          name: cleanName,
          type: newType,
          settings: {},
        }).catch((error) => {
          const next = serverErrors(error, t);
          setErrors({ ...next, defField: next.name ?? next.type ?? next._ });
          return null;
        });
        if (!created) return;
        base = created.id;
        setDefField(created.id);
        setCreateBase(false);
      }
      const body = {
        environment,
        uuid: field?.uuid ?? newUuid(),
        defDossier,
        defField: base ?? undefined,
        name: cleanName,
        obligatory,
        locked,
        settings,
      };
      const invalid = validate(defDossierDefFieldCreateSchema, body, t);
      if (invalid) {
        setErrors(invalid);
        setTab('default');
        return;
      }
      if (field) {
        await putItem('defdossierdeffield', field.id, {
          defField: body.defField,
          name: body.name,
          obligatory,
          locked,
          settings,
        });
        await refresh();
        onClose();
      } else {
        const created = await createItem<DefDossierDefField>('defdossierdeffield', body);
        await refresh();
        onClose();
        onCreated?.(created);
      }
    } catch (error) {
      setErrors(serverErrors(error, t));
      setTab('default');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={field ? t('admin.data_field.edit_title') : t('admin.data_field.add_title')}
      data-testid="field-modal"
    >
      <Stack>
        {savedLocked && <Alert color="yellow">{ENTITY_MESSAGES.locked}</Alert>}
        <GeneralError errors={errors} />
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab
              value="default"
              rightSection={errors.name || errors.defField ? <IconAlertCircle size={14} color="red" /> : null}
            >
              {t('admin.tabs.default')}
            </Tabs.Tab>
            <Tabs.Tab value="misc">{t('admin.tabs.misc')}</Tabs.Tab>
            {field && <Tabs.Tab value="info">{t('admin.tabs.info')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="default" pt="sm">
            <Stack>
              <TextInput
                label={t('admin.name')}
                required
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={errors.name}
                data-testid="data-field-name"
              />
              {!field && (
                <Switch
                  label={t('admin.data_field.create_base')}
                  checked={createBase}
                  onChange={(event) => setCreateBase(event.currentTarget.checked)}
                  data-testid="data-field-create-base"
                />
              )}
              {createBase ? (
                <Select
                  label={t('admin.type')}
                  data={[...FIELD_TYPE_NAMES]}
                  value={newType}
                  onChange={(next) => setNewType(next ?? 'text')}
                  searchable
                  data-testid="data-field-new-type"
                />
              ) : (
                <Select
                  label={t('admin.data_field.base_field')}
                  required
                  searchable
                  data={baseFields.map((base) => ({
                    value: String(base.id),
                    label: `${base.name} (${base.type})`,
                  }))}
                  value={defField ? String(defField) : null}
                  onChange={(next) => setDefField(next ? Number(next) : null)}
                  disabled={listFixed}
                  error={errors.defField}
                  description={listFixed ? ENTITY_MESSAGES.listFieldFixed : undefined}
                  data-testid="data-field-base"
                />
              )}
              <Checkbox
                label={t('admin.obligatory')}
                checked={obligatory}
                onChange={(event) => setObligatory(event.currentTarget.checked)}
                data-testid="data-field-obligatory"
              />
              <Checkbox
                label={t('admin.locked')}
                checked={locked}
                onChange={(event) => setLocked(event.currentTarget.checked)}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="misc" pt="sm">
            {type ? (
              <SettingsFields type={type} value={settings} onChange={setSettings} errors={errors} />
            ) : (
              <Text c="dimmed">{t('admin.no_settings')}</Text>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="info" pt="sm">
            <Text size="sm">
              {t('admin.id')}: {field?.id} · {t('admin.data_field.base_field')}: {field?.def_field.name} (
              {field?.def_field.type})
            </Text>
          </Tabs.Panel>
        </Tabs>
        <Group justify="flex-end">
          <SaveCancelButtons
            onCancel={onClose}
            onSave={save}
            busy={busy}
            saveDisabled={savedLocked}
            saveTestId="field-modal-save"
          />
        </Group>
      </Stack>
    </Modal>
  );
}

/** After a new data field: offer to create its display items (POST /displayitem/auto). */
export function AutoDisplayModal({
  field,
  defDossier,
  defaultPosition,
  onClose,
}: {
  field: DefDossierDefField | null;
  defDossier: number;
  defaultPosition?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironment();
  const cultures = environmentCultures(environment?.locales);
  const refresh = useRefreshAdmin();
  const { data: positions = [] } = usePositions(defDossier);
  const [position, setPosition] = useState<string | null>(null);
  const [view, setView] = useState<string>('show/edit');
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset once per created field
  useEffect(() => {
    if (!field) return;
    setErrors({});
    setView('show/edit');
    setPosition(defaultPosition ? String(defaultPosition) : positions[0] ? String(positions[0].id) : null);
    setLabels(Object.fromEntries(cultures.map((culture) => [culture, field.name.replace(/_/g, ' ')])));
  }, [field]);

  const create = async () => {
    if (!field) return;
    setBusy(true);
    try {
      await api.post('/displayitem/auto', {
        defDossierDefField: field.id,
        displayPosition: position ? Number(position) : null,
        view,
        translations: cultures.map((culture) => ({ culture, name: labels[culture] ?? field.name })),
      });
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={!!field} onClose={onClose} title={t('admin.auto.title')} data-testid="auto-display-modal">
      <Stack>
        <Text size="sm">{t('admin.auto.question')}</Text>
        <GeneralError errors={errors} />
        <Tabs defaultValue="general">
          <Tabs.List>
            <Tabs.Tab value="general">{t('admin.tabs.general')}</Tabs.Tab>
            <Tabs.Tab value="labels">{t('admin.tabs.labels')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="general" pt="sm">
            <Stack>
              <Select
                label={t('admin.display.position')}
                data={positions.map((p) => ({
                  value: String(p.id),
                  label: `${pickTranslation(p.translations, locale)?.name ?? p.type} (${p.type})`,
                }))}
                value={position}
                onChange={setPosition}
                error={errors.displayPosition}
                data-testid="auto-display-position"
              />
              <Select
                label={t('admin.display.view')}
                data={['show/edit', 'edit', 'show']}
                value={view}
                onChange={(next) => setView(next ?? 'show/edit')}
                error={errors.view}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="labels" pt="sm">
            <Stack>
              {cultures.map((culture) => (
                <TextInput
                  key={culture}
                  label={`${t('admin.display.label')} (${culture})`}
                  value={labels[culture] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setLabels((all) => ({ ...all, [culture]: value }));
                  }}
                />
              ))}
            </Stack>
          </Tabs.Panel>
        </Tabs>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="auto-display-no">
            {t('admin.auto.no')}
          </Button>
          <Button onClick={create} loading={busy} data-testid="auto-display-yes">
            {t('admin.auto.yes')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
