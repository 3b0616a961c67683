import {
  type DefField,
  defFieldCreateSchema,
  FIELD_TYPE_NAMES,
  isFieldTypeName,
  parseFieldSettings,
  valueRefsOf,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, ScrollArea, Stack, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { createItem, deleteItem, patchItem, useBaseField, useEnvironmentId } from './admin-api';
import { formError, nestedMessages, useAdminMutation } from './admin-form';
import { AdminModal, ErrorMark } from './admin-modal';
import { DuplicateModal } from './duplicate-base-field-modal';
import { FormNumberInput, FormSelect, FormTextInput } from './form-controls';
import { fieldTypeLabel } from './labels';
import { ListOptionsEditor } from './list-options-editor';
import { checkSettings } from './settings/check-settings';
import { SettingsFields } from './settings/settings-fields';

const schema = defFieldCreateSchema
  .pick({ name: true, type: true, settings: true, rank: true })
  .superRefine((values, ctx) => checkSettings(values.type, values.settings, 'base', ctx));
type Values = z.input<typeof schema>;

interface BaseFieldModalProps {
  opened: boolean;
  onClose: () => void;
  /** 0 or undefined: a new base field. */
  fieldId?: number;
  /** The entity the designer shows: its usage row comes first, marked Current. */
  currentEntity?: number;
  onSaved?: (field: DefField) => void;
}

/** Adds or edits a base field: name and type, its settings and rank, its list options, where it is used. */
export function BaseFieldModal({
  opened,
  onClose,
  fieldId = 0,
  currentEntity,
  onSaved,
}: BaseFieldModalProps) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const { data: field } = useBaseField(opened ? fieldId : 0);
  const [tab, setTab] = useState<string | null>('generic');
  const [duplicateOpen, setDuplicateOpen] = useState(false);
  const form = useForm<Values>({ resolver: zodResolver(schema) });
  const { errors } = form.formState;

  // The first tab on opening only: a tab chosen while the record was loading stays chosen.
  useEffect(() => {
    if (opened) setTab('generic');
  }, [opened]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened or once the record has loaded, not on refetches
  useEffect(() => {
    if (!opened) return;
    const type = isFieldTypeName(field?.type) ? field.type : 'text';
    form.reset({
      name: field?.name ?? '',
      type,
      rank: field?.rank ?? 0,
      settings: parseFieldSettings(type, field?.settings),
    });
  }, [opened, field?.id]);

  const placed = !!field?.usage?.some((usage) => usage.placed);
  const usage = [...(field?.usage ?? [])].sort(
    (a, b) => Number(b.def_dossier_id === currentEntity) - Number(a.def_dossier_id === currentEntity),
  );
  const type = form.watch('type');
  const holdsOptions = valueRefsOf(type) === 'options';

  const save = useAdminMutation(
    form,
    (values: Values) =>
      field
        ? patchItem<DefField>('deffield', field.id, { ...values, type: placed ? undefined : values.type })
        : createItem<DefField>('deffield', { ...values, environment }),
    {
      onSuccess: (saved) => {
        onSaved?.(saved);
        onClose();
      },
    },
  );
  const remove = useAdminMutation(form, (id: number) => deleteItem('deffield', id), { onSuccess: onClose });
  const genericError = !!(errors.name || errors.type);
  const miscError = !!(errors.settings || errors.rank);

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={field ? t('admin.base_field.edit_title') : t('admin.base_field.add_title')}
      testId="base-field-modal"
      onSubmit={form.handleSubmit(
        (values) => save.mutate(values),
        (invalid) => setTab(invalid.name || invalid.type ? 'generic' : 'misc'),
      )}
      pending={save.isPending || remove.isPending}
      error={formError(form)}
      saveTestId="base-field-save"
      actions={
        field && (
          <>
            <Tooltip label={t('admin.base_field.cannot_delete_placed')} disabled={!placed}>
              <span>
                <Button
                  color="red"
                  variant="light"
                  disabled={placed}
                  loading={remove.isPending}
                  onClick={() => remove.mutate(field.id)}
                  data-testid="base-field-delete"
                >
                  {t('admin.delete')}
                </Button>
              </span>
            </Tooltip>
            <Button variant="light" onClick={() => setDuplicateOpen(true)} data-testid="base-field-duplicate">
              {t('admin.base_field.duplicate')}
            </Button>
          </>
        )
      }
    >
      {placed && (
        <Alert color="yellow" icon={<IconAlertCircle size={16} />} data-testid="base-field-placed">
          {t('admin.base_field.placed_warning')}
        </Alert>
      )}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="generic" rightSection={<ErrorMark shown={genericError} />}>
            {t('admin.tabs.generic')}
          </Tabs.Tab>
          <Tabs.Tab value="misc" rightSection={<ErrorMark shown={miscError} />}>
            {t('admin.tabs.misc')}
          </Tabs.Tab>
          {holdsOptions && field && <Tabs.Tab value="options">{t('admin.tabs.options')}</Tabs.Tab>}
          {field && <Tabs.Tab value="info">{t('admin.tabs.info')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="generic" pt="sm">
          <Stack>
            <FormTextInput
              control={form.control}
              name="name"
              label={t('admin.name')}
              required
              data-testid="base-field-name"
            />
            <FormSelect
              control={form.control}
              name="type"
              label={t('admin.type')}
              required
              searchable
              allowDeselect={false}
              data={FIELD_TYPE_NAMES.map((name) => ({ value: name, label: fieldTypeLabel(t, name) }))}
              disabled={placed}
              // A new type starts from its own defaults.
              onValueChange={(next) => form.setValue('settings', parseFieldSettings(next ?? 'text'))}
              data-testid="base-field-type"
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="misc" pt="sm">
          <Stack>
            <Controller
              control={form.control}
              name="settings"
              render={({ field: settings }) => (
                <SettingsFields
                  type={type}
                  value={settings.value ?? {}}
                  onChange={settings.onChange}
                  errors={nestedMessages(errors.settings, t)}
                  context={{ entity: currentEntity, baseField: field?.id }}
                />
              )}
            />
            <FormNumberInput control={form.control} name="rank" label={t('admin.rank')} min={0} />
          </Stack>
        </Tabs.Panel>
        {holdsOptions && field && (
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
      {placed && field && (
        <Text size="xs" c="dimmed">
          {t('admin.base_field.cannot_delete_placed')}
        </Text>
      )}
      {field && (
        <DuplicateModal
          opened={duplicateOpen}
          onClose={() => setDuplicateOpen(false)}
          field={field}
          currentEntity={currentEntity}
        />
      )}
    </AdminModal>
  );
}
