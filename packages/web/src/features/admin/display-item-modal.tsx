import {
  DISPLAY_VIEWS,
  type DisplayItem,
  DOSSIER_DATA_KEYS,
  ENTITY_MESSAGES,
  PERMISSION_TYPES,
} from '@dossierbase/core';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Radio,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../app/locale-provider';
import { useEnvironment } from '../environments/environment-store';
import {
  createItem,
  deleteItem,
  newUuid,
  patchItem,
  pickTranslation,
  useCustomViews,
  useDataFields,
  useLinks,
  usePositions,
  useRefreshAdmin,
  useRoles,
} from './admin-api';
import {
  type Errors,
  environmentCultures,
  GeneralError,
  sanitiseInformation,
  serverErrors,
} from './form-helpers';
import { DESIGNER_VIEWS, layoutInvalid } from './grid';
import { SaveCancelButtons } from './save-cancel-buttons';
import { SettingsFields } from './settings-fields';

type Source = 'field' | 'link' | 'block' | 'dossier_data';
type Label = { name: string; informationtext: string; pretext: string };

export function DisplayItemModal({
  opened,
  onClose,
  defDossier,
  item,
  defaultPosition,
  defaultRank = 1,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  item?: DisplayItem | null;
  defaultPosition?: number;
  defaultRank?: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environmentRecord = useEnvironment();
  const environment = environmentRecord?.id ?? 0;
  const cultures = environmentCultures(environmentRecord?.locales);
  const refresh = useRefreshAdmin();
  const { data: fields = [] } = useDataFields(defDossier);
  const { data: links = [] } = useLinks(defDossier);
  const { data: positions = [] } = usePositions(defDossier);
  const { data: customViews = [] } = useCustomViews(defDossier);
  const { data: roles = [] } = useRoles();
  const [tab, setTab] = useState<string | null>('labels');
  const [labels, setLabels] = useState<Record<string, Label>>({});
  const [source, setSource] = useState<Source>('field');
  const [fieldId, setFieldId] = useState<string | null>(null);
  const [linkId, setLinkId] = useState<string | null>(null);
  const [dossierData, setDossierData] = useState<string | null>('summary');
  const [block, setBlock] = useState('');
  const [view, setView] = useState<string>('show/edit');
  const [position, setPosition] = useState<string | null>(null);
  const [col, setCol] = useState<number | string>(1);
  const [colspan, setColspan] = useState<number | string>(12);
  const [rank, setRank] = useState<number | string>(1);
  const [chosenRoles, setChosenRoles] = useState<number[]>([]);
  const [permissionsType, setPermissionsType] = useState<string>('EXCLUDE_SELECTED_ROLES');
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures come from the environment, read when opening
  useEffect(() => {
    if (!opened) return;
    setTab('labels');
    setErrors({});
    setLabels(
      Object.fromEntries(
        cultures.map((culture) => {
          const tr = item?.translations.find((entry) => entry.culture === culture);
          return [
            culture,
            {
              name: tr?.name ?? '',
              informationtext: tr?.settings?.informationtext ?? '',
              pretext: tr?.settings?.pretext ?? '',
            },
          ];
        }),
      ),
    );
    const s = item?.settings ?? {};
    setSource(
      item?.def_dossier_link
        ? 'link'
        : item?.def_dossier_def_field
          ? 'field'
          : s.dossier_data
            ? 'dossier_data'
            : s.block
              ? 'block'
              : 'field',
    );
    setFieldId(item?.def_dossier_def_field ? String(item.def_dossier_def_field.id) : null);
    setLinkId(item?.def_dossier_link ? String(item.def_dossier_link.id) : null);
    setDossierData(typeof s.dossier_data === 'string' ? s.dossier_data : 'summary');
    setBlock(s.block ? String(s.block) : '');
    setView(item?.view ?? 'show/edit');
    setPosition(
      item?.display_position_id
        ? String(item.display_position_id)
        : defaultPosition
          ? String(defaultPosition)
          : null,
    );
    setCol(item?.col ?? 1);
    setColspan(item?.colspan ?? 12);
    setRank(item?.rank ?? defaultRank);
    setChosenRoles(item?.roles.map((entry) => entry.role.id) ?? []);
    setPermissionsType(item?.permissions_type ?? 'EXCLUDE_SELECTED_ROLES');
    setSettings(s);
  }, [opened, item?.id, defaultPosition, defaultRank]);

  const chosenField = fields.find((field) => String(field.id) === fieldId);
  const settingsType =
    source === 'link' ? 'link' : source === 'field' ? chosenField?.def_field.type : undefined;
  const locationView = (DESIGNER_VIEWS as readonly string[]).includes(view);
  const badLayout =
    layoutInvalid({ col, colspan, rank }) || !!errors.col || !!errors.colspan || !!errors.rank;

  const save = async () => {
    const next: Errors = {};
    if (source === 'field' && !fieldId) next.defDossierDefField = ENTITY_MESSAGES.chooseFieldOrLink;
    if (source === 'link' && !linkId) next.defDossierLink = ENTITY_MESSAGES.chooseFieldOrLink;
    if (layoutInvalid({ col, colspan, rank })) {
      for (const [key, value] of Object.entries({ col, colspan, rank })) {
        if (typeof value !== 'number' || value < 0) next[key] = ENTITY_MESSAGES.notBelowZero;
      }
    }
    if (Object.keys(next).length) {
      setErrors(next);
      setTab(next.col || next.colspan || next.rank ? 'layout' : 'field');
      return;
    }
    const cleanSettings = { ...settings };
    delete cleanSettings.block;
    delete cleanSettings.dossier_data;
    if (source === 'block') cleanSettings.block = block;
    if (source === 'dossier_data') cleanSettings.dossier_data = dossierData;
    const body = {
      view,
      col: Number(col),
      colspan: Number(colspan),
      rank: Number(rank),
      rowspan: 0,
      roles: chosenRoles,
      permissions_type: permissionsType,
      defaultPermissionType: '',
      translations: cultures.map((culture) => {
        const label = labels[culture] ?? { name: '', informationtext: '', pretext: '' };
        return {
          culture,
          name: label.name,
          settings: {
            informationtext: sanitiseInformation(label.informationtext),
            pretext: sanitiseInformation(label.pretext),
          },
        };
      }),
      settings: cleanSettings,
      defDossierDefField: source === 'field' && fieldId ? Number(fieldId) : null,
      defDossierLink: source === 'link' && linkId ? Number(linkId) : null,
    };
    setBusy(true);
    try {
      if (item) await patchItem('displayitem', item.id, body);
      else
        await createItem('displayitem', {
          ...body,
          environment,
          defDossier,
          uuid: newUuid(),
          displayPosition: locationView && position ? Number(position) : null,
        });
      await refresh();
      setTimeout(onClose, 300);
    } catch (error) {
      const server = serverErrors(error, t);
      setErrors(server);
      if (server.col || server.colspan || server.rank) setTab('layout');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!item) return;
    try {
      await deleteItem('displayitem', item.id);
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    }
  };

  const setLabel = (culture: string, key: keyof Label, value: string) =>
    setLabels((all) => ({
      ...all,
      [culture]: { ...(all[culture] ?? { name: '', informationtext: '', pretext: '' }), [key]: value },
    }));

  const views = [...DISPLAY_VIEWS, ...customViews.map((custom) => custom.view_name)];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      title={item ? `${t('admin.display.edit_title')} #${item.id}` : t('admin.display.add_title')}
      data-testid="display-modal"
    >
      <Stack>
        <GeneralError errors={errors} />
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab value="labels">{t('admin.tabs.labels')}</Tabs.Tab>
            <Tabs.Tab
              value="field"
              rightSection={
                errors.defDossierDefField || errors.defDossierLink ? (
                  <IconAlertCircle size={14} color="red" />
                ) : null
              }
            >
              {t('admin.tabs.field')}
            </Tabs.Tab>
            <Tabs.Tab
              value="layout"
              rightSection={
                badLayout ? <IconAlertCircle size={14} color="red" data-testid="layout-error" /> : null
              }
              data-testid="display-tab-layout"
            >
              {t('admin.tabs.layout')}
            </Tabs.Tab>
            <Tabs.Tab value="permissions">{t('admin.tabs.permissions')}</Tabs.Tab>
            {settingsType && <Tabs.Tab value="settings">{t('admin.tabs.settings')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="labels" pt="sm">
            <Stack>
              {cultures.map((culture) => {
                const label = labels[culture] ?? { name: '', informationtext: '', pretext: '' };
                return (
                  <Box key={culture}>
                    <Text fw={600} size="sm">
                      {culture}
                    </Text>
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <Stack gap="xs">
                        <TextInput
                          label={t('admin.display.label')}
                          value={label.name}
                          onChange={(event) => setLabel(culture, 'name', event.currentTarget.value)}
                          data-testid={`display-label-${culture}`}
                        />
                        <Textarea
                          label={t('admin.display.information_text')}
                          autosize
                          minRows={2}
                          value={label.informationtext}
                          onChange={(event) =>
                            setLabel(culture, 'informationtext', event.currentTarget.value)
                          }
                        />
                        <Textarea
                          label={t('admin.display.pretext')}
                          autosize
                          minRows={2}
                          value={label.pretext}
                          onChange={(event) => setLabel(culture, 'pretext', event.currentTarget.value)}
                        />
                      </Stack>
                      <Box>
                        <Text size="xs" c="dimmed">
                          {t('admin.display.preview')}
                        </Text>
                        <Box
                          p="xs"
                          style={{
                            border: '1px solid var(--mantine-color-gray-3)',
                            borderRadius: 4,
                            minHeight: 60,
                          }}
                          data-testid={`display-preview-${culture}`}
                          // Sanitised with DOMPurify to the contract's tags and attributes.
                          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised above
                          dangerouslySetInnerHTML={{
                            __html: sanitiseInformation(`${label.pretext}<br/>${label.informationtext}`),
                          }}
                        />
                      </Box>
                    </SimpleGrid>
                  </Box>
                );
              })}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="field" pt="sm">
            <Stack>
              <Radio.Group
                value={source}
                onChange={(next) => setSource(next as Source)}
                label={t('admin.display.source')}
              >
                <Group mt="xs">
                  <Radio value="field" label={t('admin.data_field.title')} disabled={!!item} />
                  <Radio value="link" label={t('admin.link.title')} disabled={!!item} />
                  <Radio value="block" label={t('admin.display.block')} disabled={!!item} />
                  <Radio value="dossier_data" label={t('admin.display.dossier_data')} disabled={!!item} />
                </Group>
              </Radio.Group>
              {source === 'field' && (
                <Select
                  label={t('admin.data_field.title')}
                  searchable
                  data={fields.map((field) => ({
                    value: String(field.id),
                    label: `${field.name} (${field.def_field.type})`,
                  }))}
                  value={fieldId}
                  onChange={setFieldId}
                  error={errors.defDossierDefField}
                  data-testid="display-field-picker"
                />
              )}
              {source === 'link' && (
                <Select
                  label={t('admin.link.title')}
                  searchable
                  data={links.map((link) => ({ value: String(link.id), label: link.name }))}
                  value={linkId}
                  onChange={setLinkId}
                  error={errors.defDossierLink}
                  data-testid="display-link-picker"
                />
              )}
              {source === 'block' && (
                <TextInput
                  label={t('admin.display.block')}
                  value={block}
                  onChange={(event) => setBlock(event.currentTarget.value)}
                />
              )}
              {source === 'dossier_data' && (
                <Select
                  label={t('admin.display.dossier_data')}
                  data={[...DOSSIER_DATA_KEYS]}
                  value={dossierData}
                  onChange={setDossierData}
                />
              )}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="layout" pt="sm">
            <Stack>
              <Select
                label={t('admin.display.view')}
                data={views}
                value={view}
                onChange={(next) => setView(next ?? 'show/edit')}
                disabled={!!item}
                error={errors.view}
                data-testid="display-view"
              />
              {locationView && (
                <Select
                  label={t('admin.display.position')}
                  data={positions.map((p) => ({
                    value: String(p.id),
                    label: `${pickTranslation(p.translations, locale)?.name ?? p.type} (${p.type})`,
                  }))}
                  value={position}
                  onChange={setPosition}
                  disabled={!!item}
                  description={item ? ENTITY_MESSAGES.locationFixed : undefined}
                  error={errors.displayPosition}
                  data-testid="display-position"
                />
              )}
              <SimpleGrid cols={3}>
                <NumberInput
                  label={t('admin.display.col')}
                  value={col}
                  onChange={setCol}
                  error={errors.col}
                  data-testid="display-col"
                />
                <NumberInput
                  label={t('admin.display.colspan')}
                  value={colspan}
                  max={12}
                  onChange={setColspan}
                  error={errors.colspan}
                  data-testid="display-colspan"
                />
                <NumberInput
                  label={t('admin.rank')}
                  value={rank}
                  onChange={setRank}
                  error={errors.rank}
                  data-testid="display-rank"
                />
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="permissions" pt="sm">
            <Stack>
              <Radio.Group
                value={permissionsType}
                onChange={setPermissionsType}
                label={t('admin.display.permission_type')}
              >
                <Group mt="xs">
                  {PERMISSION_TYPES.map((value) => (
                    <Radio key={value} value={value} label={t(`admin.display.permission_types.${value}`)} />
                  ))}
                </Group>
              </Radio.Group>
              <ScrollArea.Autosize mah={250}>
                <Stack gap={4}>
                  {roles.map((role) => (
                    <Checkbox
                      key={role.id}
                      label={role.name}
                      checked={chosenRoles.includes(role.id)}
                      onChange={(event) =>
                        setChosenRoles((list) =>
                          event.currentTarget.checked
                            ? [...list, role.id]
                            : list.filter((id) => id !== role.id),
                        )
                      }
                    />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Stack>
          </Tabs.Panel>
          {settingsType && (
            <Tabs.Panel value="settings" pt="sm">
              <Stack>
                <Checkbox
                  label={t('admin.display.show_info_direct')}
                  checked={settings.show_info_direct === true}
                  onChange={(event) =>
                    setSettings({ ...settings, show_info_direct: event.currentTarget.checked })
                  }
                />
                <SettingsFields type={settingsType} value={settings} onChange={setSettings} errors={errors} />
              </Stack>
            </Tabs.Panel>
          )}
        </Tabs>
        {item && !locationView && <Alert color="gray">{ENTITY_MESSAGES.locationFixed}</Alert>}
        <Group justify="space-between">
          <div>
            {item && (
              <Button color="red" variant="light" onClick={remove} data-testid="display-delete">
                {t('admin.delete')}
              </Button>
            )}
          </div>
          <SaveCancelButtons onCancel={onClose} onSave={save} busy={busy} saveTestId="display-save" />
        </Group>
      </Stack>
    </Modal>
  );
}
