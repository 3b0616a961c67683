import {
  type DefDossierDefField,
  type DefField,
  defDossierDefFieldCreateSchema,
  defFieldCreateSchema,
  ENTITY_MESSAGES,
  FIELD_TYPE_NAMES,
  idSchema,
  parseFieldSettings,
  REQUIRED_MESSAGE,
  sanitiseFieldName,
  valueRefsOf,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api/client';
import { translateMessage } from '../../i18n/messages';
import {
  adminKeys,
  createItem,
  newUuid,
  putItem,
  useBaseField,
  useBaseFields,
  useEnvironmentId,
} from './admin-api';
import { formError, nestedMessages, useAdminMutation } from './admin-form';
import { AdminModal, ErrorMark } from './admin-modal';
import { FormCheckbox, FormSelect, FormSwitch, FormTextInput } from './form-controls';
import { fieldTypeLabel } from './labels';
import { checkSettings } from './settings/check-settings';
import { SettingsFields } from './settings/settings-fields';

const core = defDossierDefFieldCreateSchema.shape;

/** `type()` is the field type the settings belong to, known only once the base field has loaded. */
function dataFieldSchema(type: () => string) {
  return z
    .object({
      name: core.name,
      defField: idSchema.nullable(),
      createBase: z.boolean(),
      newType: defFieldCreateSchema.shape.type,
      obligatory: z.boolean(),
      locked: z.boolean(),
      settings: core.settings,
    })
    .superRefine((values, ctx) => {
      if (!values.createBase && values.defField === null) {
        ctx.addIssue({ code: 'custom', message: REQUIRED_MESSAGE, path: ['defField'] });
      }
      checkSettings(type(), values.settings, 'override', ctx);
    });
}
type Values = z.input<ReturnType<typeof dataFieldSchema>>;

interface DataFieldModalProps {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  fieldId?: number;
  onCreated?: (field: DefDossierDefField) => void;
}

/** Adds a data field to an entity (on an existing or a new base field) or edits one. */
export function DataFieldModal({ opened, onClose, defDossier, fieldId = 0, onCreated }: DataFieldModalProps) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const { data: baseFields = [] } = useBaseFields();
  const { data: field } = useQuery({
    queryKey: adminKeys.one('defdossierdeffield', fieldId),
    queryFn: () => api.get<DefDossierDefField>(`/defdossierdeffield/${fieldId}`),
    enabled: opened && fieldId > 0,
  });
  const [tab, setTab] = useState<string | null>('default');
  const typeRef = useRef('');
  const [schema] = useState(() => dataFieldSchema(() => typeRef.current));
  const form = useForm<Values>({ resolver: zodResolver(schema) });
  const { errors } = form.formState;
  const [defField, createBase, newType] = form.watch(['defField', 'createBase', 'newType']);
  const { data: baseField } = useBaseField(defField ?? 0);

  // The first tab on opening only: a tab chosen while the record was loading stays chosen.
  useEffect(() => {
    if (opened) setTab('default');
  }, [opened]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened or once the record has loaded, not on refetches
  useEffect(() => {
    if (!opened) return;
    form.reset({
      name: field?.name ?? '',
      defField: field?.def_field.id ?? null,
      createBase: false,
      newType: 'text',
      obligatory: field?.obligatory ?? false,
      locked: field?.locked ?? false,
      settings: field?.settings ?? {},
    });
  }, [opened, field?.id]);

  const savedLocked = !!field?.locked;
  const listFixed = !!field && valueRefsOf(field.def_field.type) === 'options';
  const type = createBase ? newType : (baseField?.type ?? field?.def_field.type ?? '');
  typeRef.current = type;

  const save = useAdminMutation(
    form,
    async (values: Values) => {
      const name = sanitiseFieldName(values.name);
      let base = values.defField;
      if (values.createBase && !field) {
        const created = await createItem<DefField>('deffield', {
          environment,
          name,
          type: values.newType,
          settings: {},
        });
        // A retry after a failure below uses this base field instead of making another one.
        base = created.id;
        form.setValue('defField', created.id);
        form.setValue('createBase', false);
      }
      const body = { defField: base, name, obligatory: values.obligatory, locked: values.locked };
      if (field) {
        return putItem<DefDossierDefField>('defdossierdeffield', field.id, {
          ...body,
          settings: values.settings,
        });
      }
      return createItem<DefDossierDefField>('defdossierdeffield', {
        ...body,
        environment,
        uuid: newUuid(),
        defDossier,
        settings: values.settings,
      });
    },
    {
      fieldMap: { type: 'newType' },
      onSuccess: (saved) => {
        onClose();
        if (!field) onCreated?.(saved);
      },
    },
  );
  const defaultError = !!(errors.name || errors.defField || errors.newType);

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={field ? t('admin.data_field.edit_title') : t('admin.data_field.add_title')}
      testId="field-modal"
      onSubmit={form.handleSubmit(
        (values) => save.mutate(values),
        (invalid) => setTab(invalid.settings ? 'misc' : 'default'),
      )}
      pending={save.isPending}
      error={formError(form)}
      saveTestId="field-modal-save"
      saveDisabled={savedLocked}
    >
      {savedLocked && <Alert color="yellow">{translateMessage(t, ENTITY_MESSAGES.locked)}</Alert>}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="default" rightSection={<ErrorMark shown={defaultError} />}>
            {t('admin.tabs.default')}
          </Tabs.Tab>
          <Tabs.Tab value="misc" rightSection={<ErrorMark shown={errors.settings} />}>
            {t('admin.tabs.misc')}
          </Tabs.Tab>
          {field && <Tabs.Tab value="info">{t('admin.tabs.info')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="default" pt="sm">
          <Stack>
            <FormTextInput
              control={form.control}
              name="name"
              label={t('admin.name')}
              required
              data-testid="data-field-name"
            />
            {!field && (
              <FormSwitch
                control={form.control}
                name="createBase"
                label={t('admin.data_field.create_base')}
                data-testid="data-field-create-base"
              />
            )}
            {createBase ? (
              <FormSelect
                control={form.control}
                name="newType"
                label={t('admin.type')}
                data={FIELD_TYPE_NAMES.map((name) => ({ value: name, label: fieldTypeLabel(t, name) }))}
                allowDeselect={false}
                searchable
                data-testid="data-field-new-type"
              />
            ) : (
              <FormSelect
                control={form.control}
                name="defField"
                numeric
                label={t('admin.data_field.base_field')}
                required
                searchable
                data={baseFields.map((base) => ({
                  value: String(base.id),
                  label: `${base.name} (${fieldTypeLabel(t, base.type)})`,
                }))}
                disabled={listFixed}
                description={listFixed ? translateMessage(t, ENTITY_MESSAGES.listFieldFixed) : undefined}
                data-testid="data-field-base"
              />
            )}
            <FormCheckbox
              control={form.control}
              name="obligatory"
              label={t('admin.obligatory')}
              data-testid="data-field-obligatory"
            />
            <FormCheckbox control={form.control} name="locked" label={t('admin.locked')} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="misc" pt="sm">
          {type ? (
            <Controller
              control={form.control}
              name="settings"
              render={({ field: settings }) => (
                <SettingsFields
                  type={type}
                  value={settings.value ?? {}}
                  onChange={settings.onChange}
                  inherited={parseFieldSettings(type, baseField?.settings)}
                  errors={nestedMessages(errors.settings, t)}
                  context={{ entity: defDossier, baseField: defField ?? undefined }}
                />
              )}
            />
          ) : (
            <Text c="dimmed">{t('admin.no_settings')}</Text>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="info" pt="sm">
          {field && (
            <Text size="sm">
              {t('admin.id')}: {field.id} · {t('admin.data_field.base_field')}: {field.def_field.name} (
              {fieldTypeLabel(t, field.def_field.type)})
            </Text>
          )}
        </Tabs.Panel>
      </Tabs>
    </AdminModal>
  );
}
