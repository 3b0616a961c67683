import { displayCustomViewCreateSchema } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Table } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useLocale } from '../../../app/locale-provider';
import { createItem, entityName, useCustomViews, useEntities, useEnvironmentId } from '../admin-api';
import { formError, useAdminMutation } from '../admin-form';
import { AdminModal } from '../admin-modal';
import { FormSelect, FormTextInput } from '../form-controls';

const schema = displayCustomViewCreateSchema.omit({ environment: true });
type Values = z.input<typeof schema>;

/** The entity's custom views: lists them and adds one. */
export function CustomViewsModal({
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
  const { data: views = [] } = useCustomViews(defDossier);
  const { data: entities = [] } = useEntities();
  const form = useForm<Values>({ resolver: zodResolver(schema) });
  const reset = () => form.reset({ viewName: '', defDossier });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened
  useEffect(() => {
    if (opened) reset();
  }, [opened, defDossier]);

  // The modal stays open: the new view joins the list above, the name box empties for the next.
  const save = useAdminMutation(
    form,
    (values: Values) => createItem('displaycustomview', { ...values, environment }),
    { onSuccess: reset },
  );

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      title={t('admin.designer.custom_views')}
      testId="custom-views-modal"
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      pending={save.isPending}
      error={formError(form)}
      saveTestId="custom-view-save"
      cancelLabel={t('common.close')}
    >
      <Table>
        <Table.Tbody>
          {views.map((view) => (
            <Table.Tr key={view.id}>
              <Table.Td>{view.view_name}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <FormTextInput
        control={form.control}
        name="viewName"
        label={t('admin.name')}
        data-testid="custom-view-name"
      />
      <FormSelect
        control={form.control}
        name="defDossier"
        numeric
        label={t('admin.entity')}
        searchable
        allowDeselect={false}
        data={entities.map((e) => ({ value: String(e.id), label: entityName(e, locale) }))}
      />
    </AdminModal>
  );
}
