import { type DefDossierDefField, displayItemCreateSchema, idSchema } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Tabs, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { usePositions } from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { AdminModal } from './admin-modal';
import { FormSelect, FormTextInput } from './form-controls';
import { positionLabel, viewLabel } from './labels';
import { cultureTextsSchema, useCultures } from './translations';

const schema = z.object({
  displayPosition: idSchema.nullable(),
  view: displayItemCreateSchema.shape.view,
  labels: cultureTextsSchema,
});
type Values = z.infer<typeof schema>;

/** The views a new field is placed in by default; list and search items come from the designer. */
const VIEWS = ['show/edit', 'edit', 'show'] as const;

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
  const cultures = useCultures();
  const { data: positions = [] } = usePositions(defDossier);
  const form = useForm<Values>({ resolver: zodResolver(schema) });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset once per created field
  useEffect(() => {
    if (!field) return;
    form.reset({
      view: 'show/edit',
      displayPosition: defaultPosition ?? positions[0]?.id ?? null,
      labels: Object.fromEntries(cultures.map((culture) => [culture, field.name.replace(/_/g, ' ')])),
    });
  }, [field]);

  const create = useAdminMutation(
    form,
    (values: Values) =>
      api.post('/displayitem/auto', {
        defDossierDefField: field?.id,
        displayPosition: values.displayPosition,
        view: values.view,
        translations: cultures.map((culture) => ({
          culture,
          name: values.labels[culture] ?? field?.name ?? '',
        })),
      }),
    { onSuccess: onClose },
  );

  return (
    <AdminModal
      opened={!!field}
      onClose={onClose}
      title={t('admin.auto.title')}
      testId="auto-display-modal"
      onSubmit={form.handleSubmit((values) => create.mutate(values))}
      pending={create.isPending}
      error={formError(form)}
      saveTestId="auto-display-yes"
      saveLabel={t('admin.auto.yes')}
      cancelLabel={t('admin.auto.no')}
      cancelTestId="auto-display-no"
    >
      <Text size="sm">{t('admin.auto.question')}</Text>
      <Tabs defaultValue="general">
        <Tabs.List>
          <Tabs.Tab value="general">{t('admin.tabs.general')}</Tabs.Tab>
          <Tabs.Tab value="labels">{t('admin.tabs.labels')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="sm">
          <Stack>
            <FormSelect
              control={form.control}
              name="displayPosition"
              numeric
              label={t('admin.display.position')}
              data={positions.map((p) => ({
                value: String(p.id),
                label: positionLabel(t, p, locale),
              }))}
              data-testid="auto-display-position"
            />
            <FormSelect
              control={form.control}
              name="view"
              label={t('admin.display.view')}
              allowDeselect={false}
              data={VIEWS.map((view) => ({ value: view, label: viewLabel(t, view) }))}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="labels" pt="sm">
          <Stack>
            {cultures.map((culture) => (
              <FormTextInput
                key={culture}
                control={form.control}
                name={`labels.${culture}`}
                label={`${t('admin.display.label')} (${culture})`}
              />
            ))}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </AdminModal>
  );
}
