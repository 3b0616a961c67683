import {
  DEF_DOSSIER_TYPES,
  type DefDossier,
  defDossierCreateSchema,
  type EntityPermission,
  REQUIRED_MESSAGE,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../api/client';
import { notifySuccess } from '../../api/errors';
import { NotFoundPage } from '../../app/not-found-page';
import {
  EntityQuerySettings,
  type QuerySettings,
  readQuerySettings,
  writeQuerySettings,
} from '../queries/entity-query-settings';
import {
  createItem,
  patchItem,
  putPermission,
  useEntity,
  useEnvironmentId,
  usePermissions,
  useRoles,
} from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { AdminOnly } from './admin-guard';
import { ErrorMark } from './admin-modal';
import { AddressLookupPanel, HiddenFieldsSelect, ViewSettingsPanel } from './entity-view-settings';
import {
  FormCheckbox,
  FormMultiSelect,
  FormNumberInput,
  FormSelect,
  FormSwitch,
  FormTextInput,
} from './form-controls';
import { PermissionMatrix, type PermissionMatrixValue } from './permission-matrix';
import { useCultures } from './translations';
import {
  type AddressLookup,
  readAddressLookup,
  readViewSettings,
  writeAddressLookup,
  writeViewSettings,
} from './view-settings';

const core = defDossierCreateSchema.shape;
const translation = z.object({ name: z.string(), name_singular: z.string(), name_plural: z.string() });
type Translation = z.infer<typeof translation>;

function entitySchema(cultures: readonly string[]) {
  return z.object({
    // One name is enough: the other languages and the singular and plural fall back to it.
    translations: z.record(z.string(), translation).superRefine((all, ctx) => {
      if (!cultures.some((culture) => all[culture]?.name.trim())) {
        ctx.addIssue({ code: 'custom', message: REQUIRED_MESSAGE, path: [cultures[0] ?? '', 'name'] });
      }
    }),
    type: core.type,
    rank: core.rank,
    archivable: core.archivable,
    visibility_roles: core.visibility_roles,
    add_continue: z.boolean(),
    layout_sidebar: z.boolean(),
    detail_layout: z.enum(['default', 'vertical']),
    viewSettings: z.record(z.string(), z.string().nullable()),
    addressLookup: z.custom<AddressLookup>(),
    hiddenfields: z.array(z.string()),
    permissions: z.custom<PermissionMatrixValue>(),
    querySettings: z.custom<QuerySettings>(),
  });
}
type Values = z.input<ReturnType<typeof entitySchema>>;
type Saved = z.output<ReturnType<typeof entitySchema>>;

const matrixOf = (permissions: readonly EntityPermission[] | undefined): PermissionMatrixValue =>
  Object.fromEntries((permissions ?? []).map((p) => [p.role_id, [...p.actions]]));

/** The form's values for a stored entity, or for a new one. */
function formValues(
  cultures: readonly string[],
  entity: DefDossier | undefined,
  permissions: readonly EntityPermission[] | undefined,
): Values {
  const settings = entity?.settings ?? {};
  return {
    translations: Object.fromEntries(
      cultures.map((culture) => {
        const tr = entity?.translations.find((entry) => entry.culture === culture);
        const text: Translation = {
          name: tr?.name ?? '',
          name_singular: tr?.name_singular ?? '',
          name_plural: tr?.name_plural ?? '',
        };
        return [culture, text];
      }),
    ),
    type: entity?.type ?? 'main',
    rank: entity?.rank ?? 0,
    archivable: entity?.archivable ?? false,
    visibility_roles: entity?.visibility_roles ?? [],
    add_continue: settings.add_continue === true,
    layout_sidebar: settings.layout_sidebar === true,
    detail_layout: settings.detail_layout === 'vertical' ? 'vertical' : 'default',
    viewSettings: readViewSettings(settings),
    addressLookup: readAddressLookup(settings),
    hiddenfields: Array.isArray(settings.hiddenfields) ? settings.hiddenfields.map(String) : [],
    permissions: matrixOf(permissions),
    querySettings: readQuerySettings(settings),
  };
}

export function EntityEditPage() {
  return (
    <AdminOnly>
      <EntityEdit />
    </AdminOnly>
  );
}

/** A new entity, or an existing one: its names, type and settings, view settings, address lookup and permissions. */
function EntityEdit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id) || 0;
  const environment = useEnvironmentId();
  const cultures = useCultures();
  const { data: entity, isLoading, error: entityError } = useEntity(id);
  const { data: roles = [] } = useRoles();
  const { data: permissions } = usePermissions(id);
  const schema = useMemo(() => entitySchema(cultures), [cultures]);
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(schema),
    defaultValues: formValues(cultures, entity, permissions),
  });
  const { errors } = form.formState;

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the entity (re)loads; cultures are fixed while the page is open
  useEffect(() => {
    form.reset(formValues(cultures, entity, permissions));
  }, [entity]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the stored permissions (re)load
  useEffect(() => {
    form.setValue('permissions', matrixOf(permissions));
  }, [permissions]);

  const save = useAdminMutation(
    form,
    async (values: Saved) => {
      const first = cultures.map((culture) => values.translations[culture]).find((tr) => tr?.name.trim());
      const body = {
        type: values.type,
        rank: values.rank,
        archivable: values.archivable,
        visibility_roles: values.visibility_roles,
        translations: cultures.map((culture) => {
          const tr = values.translations[culture];
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
          add_continue: values.add_continue,
          layout_sidebar: values.layout_sidebar,
          detail_layout: values.detail_layout,
          ...(id
            ? {
                ...writeViewSettings(values.viewSettings),
                address_lookup_settings: {
                  ...((entity?.settings?.address_lookup_settings as Record<string, unknown>) ?? {}),
                  ...writeAddressLookup(values.addressLookup),
                },
                hiddenfields: values.hiddenfields.map(Number),
                query_settings: {
                  ...((entity?.settings?.query_settings as Record<string, unknown>) ?? {}),
                  ...writeQuerySettings(values.querySettings),
                },
              }
            : {}),
        },
      };
      const saved = id
        ? await patchItem<DefDossier>('defdossier', id, body)
        : await createItem<DefDossier>('defdossier', { ...body, environment });
      const entityId = saved?.id ?? id;
      // Permissions are a resource of their own: one PUT per role whose actions changed.
      for (const role of roles) {
        const actions = values.permissions[role.id] ?? [];
        const before: readonly string[] = permissions?.find((p) => p.role_id === role.id)?.actions ?? [];
        if (actions.length === before.length && actions.every((action) => before.includes(action))) continue;
        await putPermission({ environment, defDossier: entityId, role: role.id, actions });
      }
      return entityId;
    },
    {
      environmentToo: true,
      fieldMap: { translations: `translations.${cultures[0]}.name` },
      onSuccess: (entityId) => {
        notifySuccess(t('admin.saved'));
        if (!id) navigate(`/fieldeditor/${entityId}`);
      },
    },
  );

  // an unknown entity, or one of an environment the user is not in
  if (id && isApiError(entityError, 404)) return <NotFoundPage />;
  if (id && isLoading) return <Loader />;
  const message = formError(form);

  return (
    <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
      <Stack data-testid="entity-form">
        <Title order={1} size="h3">
          {id ? t('admin.entity_edit.title') : t('admin.entity_edit.new_title')}
        </Title>
        {message && (
          <Alert color="red" data-testid="form-error">
            {message}
          </Alert>
        )}
        <Tabs defaultValue="generic">
          <Tabs.List>
            <Tabs.Tab value="generic" rightSection={<ErrorMark shown={errors.translations || errors.rank} />}>
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
            {id > 0 && (
              <Tabs.Tab value="queries" data-testid="entity-tab-queries">
                {t('admin.tabs.queries')}
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
                    <FormTextInput
                      control={form.control}
                      name={`translations.${culture}.name`}
                      label={t('admin.name')}
                      required={index === 0}
                      data-testid={`entity-name-${culture}`}
                    />
                    <FormTextInput
                      control={form.control}
                      name={`translations.${culture}.name_singular`}
                      label={t('admin.entity_edit.singular')}
                      data-testid={`entity-singular-${culture}`}
                    />
                    <FormTextInput
                      control={form.control}
                      name={`translations.${culture}.name_plural`}
                      label={t('admin.entity_edit.plural')}
                      data-testid={`entity-plural-${culture}`}
                    />
                  </SimpleGrid>
                </Paper>
              ))}
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <FormSelect
                  control={form.control}
                  name="type"
                  label={t('admin.type')}
                  allowDeselect={false}
                  data={DEF_DOSSIER_TYPES.map((value) => ({
                    value,
                    label: t(`admin.entity_types.${value}`),
                  }))}
                  data-testid="entity-type"
                />
                <FormNumberInput control={form.control} name="rank" label={t('admin.rank')} min={0} />
                <FormMultiSelect
                  control={form.control}
                  name="visibility_roles"
                  numeric
                  label={t('admin.entity_edit.visibility_roles')}
                  data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
                />
              </SimpleGrid>
              <FormCheckbox
                control={form.control}
                name="archivable"
                label={t('admin.entity_edit.archivable')}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="settings" pt="md">
            <Stack>
              <FormSwitch
                control={form.control}
                name="add_continue"
                label={t('admin.entity_edit.add_continue')}
              />
              <FormSwitch
                control={form.control}
                name="layout_sidebar"
                label={t('admin.entity_edit.layout_sidebar')}
              />
              <FormSelect
                control={form.control}
                name="detail_layout"
                label={t('admin.entity_edit.detail_layout')}
                allowDeselect={false}
                data={[
                  { value: 'default', label: t('admin.entity_edit.layout_default') },
                  { value: 'vertical', label: t('admin.entity_edit.layout_vertical') },
                ]}
                w={240}
              />
              {id > 0 && (
                <Controller
                  control={form.control}
                  name="hiddenfields"
                  render={({ field }) => (
                    <HiddenFieldsSelect entityId={id} value={field.value ?? []} onChange={field.onChange} />
                  )}
                />
              )}
            </Stack>
          </Tabs.Panel>
          {id > 0 && (
            <Tabs.Panel value="views" pt="md">
              <Controller
                control={form.control}
                name="viewSettings"
                render={({ field }) => (
                  <ViewSettingsPanel
                    entityId={id}
                    values={field.value ?? {}}
                    onChange={(key, value) => field.onChange({ ...field.value, [key]: value })}
                  />
                )}
              />
            </Tabs.Panel>
          )}
          {id > 0 && (
            <Tabs.Panel value="address" pt="md">
              <Controller
                control={form.control}
                name="addressLookup"
                render={({ field }) => (
                  <AddressLookupPanel entityId={id} value={field.value} onChange={field.onChange} />
                )}
              />
            </Tabs.Panel>
          )}
          {id > 0 && (
            <Tabs.Panel value="queries" pt="md">
              <Controller
                control={form.control}
                name="querySettings"
                render={({ field }) => (
                  <EntityQuerySettings entityId={id} value={field.value} onChange={field.onChange} />
                )}
              />
            </Tabs.Panel>
          )}
          <Tabs.Panel value="permissions" pt="md">
            <Controller
              control={form.control}
              name="permissions"
              render={({ field }) => (
                <PermissionMatrix roles={roles} value={field.value ?? {}} onChange={field.onChange} />
              )}
            />
          </Tabs.Panel>
        </Tabs>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(-1)}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="entity-form-save">
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
