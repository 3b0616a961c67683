import {
  DEF_DOSSIER_TYPES,
  type DefDossier,
  defDossierCreateSchema,
  PERMISSION_ACTIONS,
} from '@dossierbase/core';
import {
  Button,
  Checkbox,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { notifySuccess } from '../../api/errors';
import { NotFoundPage } from '../../app/not-found-page';
import { useEnvironment } from '../environments/environment-store';
import {
  createItem,
  patchItem,
  putPermission,
  useEntity,
  usePermissions,
  useRefreshAdmin,
  useRoles,
} from './admin-api';
import { AdminOnly } from './admin-guard';
import { AddressLookupPanel, HiddenFieldsSelect, ViewSettingsPanel } from './entity-view-settings';
import { type Errors, GeneralError, serverErrors, validate } from './form-helpers';
import { permissionActionLabel } from './labels';
import { useCultures } from './translations';
import {
  type AddressLookup,
  readAddressLookup,
  readViewSettings,
  writeAddressLookup,
  writeViewSettings,
} from './view-settings';

type Translation = { name: string; name_singular: string; name_plural: string };

export function EntityEditPage() {
  return (
    <AdminOnly>
      <EntityEdit />
    </AdminOnly>
  );
}

function EntityEdit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id) || 0;
  const environmentRecord = useEnvironment();
  const environment = environmentRecord?.id ?? 0;
  const cultures = useCultures();
  const refresh = useRefreshAdmin();
  const { data: entity, isLoading, error: entityError } = useEntity(id);
  const { data: roles = [] } = useRoles();
  const { data: permissions } = usePermissions(id);
  const [translations, setTranslations] = useState<Record<string, Translation>>({});
  const [type, setType] = useState<string>('main');
  const [rank, setRank] = useState<number | string>(0);
  const [archivable, setArchivable] = useState(false);
  const [visibility, setVisibility] = useState<string[]>([]);
  const [addContinue, setAddContinue] = useState(false);
  const [sidebar, setSidebar] = useState(false);
  const [detailLayout, setDetailLayout] = useState<string>('default');
  const [viewSettings, setViewSettings] = useState<Record<string, string | null>>({});
  const [addressLookup, setAddressLookup] = useState<AddressLookup>(() => readAddressLookup({}));
  const [hiddenFields, setHiddenFields] = useState<string[]>([]);
  const [matrix, setMatrix] = useState<Record<number, string[]>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures are fixed while the page is open
  useEffect(() => {
    const settings = entity?.settings ?? {};
    setTranslations(
      Object.fromEntries(
        cultures.map((culture) => {
          const tr = entity?.translations.find((entry) => entry.culture === culture);
          return [
            culture,
            {
              name: tr?.name ?? '',
              name_singular: tr?.name_singular ?? '',
              name_plural: tr?.name_plural ?? '',
            },
          ];
        }),
      ),
    );
    setType(entity?.type ?? 'main');
    setRank(entity?.rank ?? 0);
    setArchivable(entity?.archivable ?? false);
    setVisibility((entity?.visibility_roles ?? []).map(String));
    setAddContinue(settings.add_continue === true);
    setSidebar(settings.layout_sidebar === true);
    setDetailLayout(settings.detail_layout === 'vertical' ? 'vertical' : 'default');
    setViewSettings(readViewSettings(settings));
    setAddressLookup(readAddressLookup(settings));
    setHiddenFields(Array.isArray(settings.hiddenfields) ? settings.hiddenfields.map(String) : []);
    setErrors({});
  }, [entity]);

  useEffect(() => {
    setMatrix(Object.fromEntries((permissions ?? []).map((p) => [p.role_id, [...p.actions]])));
  }, [permissions]);

  const setText = (culture: string, key: keyof Translation, value: string) =>
    setTranslations((all) => ({
      ...all,
      [culture]: { ...(all[culture] ?? { name: '', name_singular: '', name_plural: '' }), [key]: value },
    }));

  const save = async () => {
    const first = Object.values(translations).find((tr) => tr.name.trim());
    const body = {
      environment,
      type,
      rank: Number(rank),
      archivable,
      visibility_roles: visibility.map(Number),
      translations: cultures.map((culture) => {
        const tr = translations[culture];
        const name = tr?.name.trim() || first?.name.trim() || '';
        return {
          culture,
          name,
          name_singular: tr?.name_singular.trim() || first?.name_singular.trim() || name,
          name_plural: tr?.name_plural.trim() || first?.name_plural.trim() || name,
        };
      }),
      settings: {
        ...(entity?.settings ?? {}),
        add_continue: addContinue,
        layout_sidebar: sidebar,
        detail_layout: detailLayout,
        ...(id
          ? {
              ...writeViewSettings(viewSettings),
              address_lookup_settings: {
                ...((entity?.settings?.address_lookup_settings as Record<string, unknown>) ?? {}),
                ...writeAddressLookup(addressLookup),
              },
              hiddenfields: hiddenFields.map(Number),
            }
          : {}),
      },
    };
    const invalid = validate(defDossierCreateSchema, body, t);
    if (invalid) {
      if (invalid.translations) invalid[`name_${cultures[0]}`] = invalid.translations;
      return setErrors(invalid);
    }
    setBusy(true);
    try {
      const saved = id
        ? await patchItem<DefDossier>('defdossier', id, { ...body, environment: undefined })
        : await createItem<DefDossier>('defdossier', body);
      const entityId = saved?.id ?? id;
      for (const role of roles) {
        const actions = matrix[role.id] ?? [];
        const before = permissions?.find((p) => p.role_id === role.id)?.actions ?? [];
        if (actions.length === before.length && actions.every((action) => before.includes(action as never)))
          continue;
        await putPermission({ environment, defDossier: entityId, role: role.id, actions });
      }
      await refresh(true);
      notifySuccess(t('admin.saved'));
      if (!id) navigate(`/fieldeditor/${entityId}`);
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  // an unknown entity, or one of an environment the user is not in
  if (id && isApiError(entityError, 404)) return <NotFoundPage />;
  if (id && isLoading) return <Loader />;
  const toggle = (role: number, action: string, on: boolean) =>
    setMatrix((all) => ({
      ...all,
      [role]: on ? [...(all[role] ?? []), action] : (all[role] ?? []).filter((a) => a !== action),
    }));

  return (
    <Stack data-testid="entity-form">
      <Title order={3}>{id ? t('admin.entity_edit.title') : t('admin.entity_edit.new_title')}</Title>
      <GeneralError errors={errors} />
      <Tabs defaultValue="generic">
        <Tabs.List>
          <Tabs.Tab
            value="generic"
            rightSection={errors.translations ? <IconAlertCircle size={14} color="red" /> : null}
          >
            {t('admin.tabs.generic')}
          </Tabs.Tab>
          <Tabs.Tab value="settings">{t('admin.tabs.settings')}</Tabs.Tab>
          {id > 0 && (
            <Tabs.Tab value="views" data-testid="entity-tab-views">
              {t('admin.tabs.views')}
            </Tabs.Tab>
          )}
          {id > 0 && (
            <Tabs.Tab value="address" data-testid="entity-tab-address">
              {t('admin.tabs.address_lookup')}
            </Tabs.Tab>
          )}
          <Tabs.Tab value="permissions" data-testid="entity-tab-permissions">
            {t('admin.tabs.permissions')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="generic" pt="md">
          <Stack>
            {cultures.map((culture, index) => (
              <Paper key={culture} withBorder p="sm">
                <Text fw={600} size="sm" mb="xs">
                  {culture}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <TextInput
                    label={t('admin.name')}
                    required={index === 0}
                    value={translations[culture]?.name ?? ''}
                    onChange={(event) => setText(culture, 'name', event.currentTarget.value)}
                    error={
                      index === 0 ? (errors[`name_${culture}`] ?? errors['translations.0.name']) : undefined
                    }
                    data-testid={`entity-name-${culture}`}
                  />
                  <TextInput
                    label={t('admin.entity_edit.singular')}
                    value={translations[culture]?.name_singular ?? ''}
                    onChange={(event) => setText(culture, 'name_singular', event.currentTarget.value)}
                    data-testid={`entity-singular-${culture}`}
                  />
                  <TextInput
                    label={t('admin.entity_edit.plural')}
                    value={translations[culture]?.name_plural ?? ''}
                    onChange={(event) => setText(culture, 'name_plural', event.currentTarget.value)}
                    data-testid={`entity-plural-${culture}`}
                  />
                </SimpleGrid>
              </Paper>
            ))}
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Select
                label={t('admin.type')}
                data={DEF_DOSSIER_TYPES.map((value) => ({ value, label: t(`admin.entity_types.${value}`) }))}
                value={type}
                onChange={(next) => setType(next ?? 'main')}
                error={errors.type}
                data-testid="entity-type"
              />
              <NumberInput
                label={t('admin.rank')}
                min={0}
                value={rank}
                onChange={setRank}
                error={errors.rank}
              />
              <MultiSelect
                label={t('admin.entity_edit.visibility_roles')}
                data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
                value={visibility}
                onChange={setVisibility}
              />
            </SimpleGrid>
            <Checkbox
              label={t('admin.entity_edit.archivable')}
              checked={archivable}
              onChange={(event) => setArchivable(event.currentTarget.checked)}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <Stack>
            <Switch
              label={t('admin.entity_edit.add_continue')}
              checked={addContinue}
              onChange={(event) => setAddContinue(event.currentTarget.checked)}
            />
            <Switch
              label={t('admin.entity_edit.layout_sidebar')}
              checked={sidebar}
              onChange={(event) => setSidebar(event.currentTarget.checked)}
            />
            <Select
              label={t('admin.entity_edit.detail_layout')}
              data={[
                { value: 'default', label: t('admin.entity_edit.layout_default') },
                { value: 'vertical', label: t('admin.entity_edit.layout_vertical') },
              ]}
              value={detailLayout}
              onChange={(next) => setDetailLayout(next ?? 'default')}
              w={240}
            />
            {id > 0 && <HiddenFieldsSelect entityId={id} value={hiddenFields} onChange={setHiddenFields} />}
          </Stack>
        </Tabs.Panel>
        {id > 0 && (
          <Tabs.Panel value="views" pt="md">
            <ViewSettingsPanel
              entityId={id}
              values={viewSettings}
              onChange={(key, value) => setViewSettings((all) => ({ ...all, [key]: value }))}
            />
          </Tabs.Panel>
        )}
        {id > 0 && (
          <Tabs.Panel value="address" pt="md">
            <AddressLookupPanel entityId={id} value={addressLookup} onChange={setAddressLookup} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="permissions" pt="md">
          <ScrollArea>
            <Table withTableBorder data-testid="entity-permissions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.role')}</Table.Th>
                  {PERMISSION_ACTIONS.map((action) => (
                    <Table.Th key={action} style={{ fontSize: 11 }}>
                      {permissionActionLabel(t, action)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {roles.map((role) => (
                  <Table.Tr key={role.id}>
                    <Table.Td>{role.name}</Table.Td>
                    {PERMISSION_ACTIONS.map((action) => (
                      <Table.Td key={action}>
                        <Checkbox
                          size="xs"
                          aria-label={`${role.name} ${permissionActionLabel(t, action)}`}
                          checked={(matrix[role.id] ?? []).includes(action)}
                          onChange={(event) => toggle(role.id, action, event.currentTarget.checked)}
                          data-testid={`permission-${role.id}-${action}`}
                        />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Tabs.Panel>
      </Tabs>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => navigate(-1)}>
          {t('common.cancel')}
        </Button>
        <Button onClick={save} loading={busy} data-testid="entity-form-save">
          {t('admin.save')}
        </Button>
      </Group>
    </Stack>
  );
}
