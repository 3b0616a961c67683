import { defFieldListCreateSchema, type ListOption } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Tabs, Text } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useEnvironment } from '../environments/environment-store';
import { createItem, deleteItem, patchItem, useRoles } from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { AdminModal } from './admin-modal';
import { FormColorInput, FormIdChecks, FormNumberInput, FormTextInput } from './form-controls';
import { cultureTexts, cultureTextsSchema, requireOneText, useCultures, withFallback } from './translations';

const core = defFieldListCreateSchema.shape;

function optionSchema(cultures: readonly string[]) {
  return z.object({
    texts: cultureTextsSchema.superRefine(requireOneText(cultures)),
    // An empty colour box means no colour.
    color: z
      .string()
      .transform((color) => color.trim() || null)
      .pipe(core.color.unwrap()),
    rank: core.rank,
    hiddenFor: core.settings.unwrap().shape.roles,
  });
}
type Values = z.input<ReturnType<typeof optionSchema>>;
type Saved = z.output<ReturnType<typeof optionSchema>>;

/** Adds or edits one option of a list or tree field: its text per language, colour, rank and hidden roles. */
export function ListOptionModal({
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
  const environment = useEnvironment();
  const cultures = useCultures();
  const schema = useMemo(() => optionSchema(cultures), [cultures]);
  const form = useForm<Values, unknown, Saved>({ resolver: zodResolver(schema) });
  const { data: roles = [] } = useRoles();

  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures are fixed while the modal is open
  useEffect(() => {
    if (!opened) return;
    form.reset({
      texts: cultureTexts(cultures, option?.translations, (tr) => tr.text),
      color: option?.color ?? '',
      rank: option?.rank ?? nextRank,
      hiddenFor: option?.settings?.roles ?? [],
    });
  }, [opened, option, nextRank]);

  const save = useAdminMutation(
    form,
    (values: Saved) => {
      const texts = withFallback(cultures, values.texts);
      const body = {
        defField,
        color: values.color,
        rank: values.rank,
        default: option?.default ?? false,
        translations: cultures.map((culture) => ({ culture, text: texts[culture] })),
        settings: { ...(option?.settings ?? {}), roles: values.hiddenFor },
      };
      return option
        ? patchItem('deffieldlist', option.id, body)
        : createItem('deffieldlist', { ...body, environment: environment?.id });
    },
    { onSuccess: onClose, fieldMap: { translations: `texts.${cultures[0]}` } },
  );
  const remove = useAdminMutation(form, (id: number) => deleteItem('deffieldlist', id), {
    onSuccess: onClose,
  });

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      title={t('admin.list_option.title')}
      testId="list-option-modal"
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      pending={save.isPending || remove.isPending}
      error={formError(form)}
      saveTestId="list-option-save"
      actions={
        option && (
          <Button
            color="red"
            variant="light"
            loading={remove.isPending}
            onClick={() => remove.mutate(option.id)}
            data-testid="list-option-delete"
          >
            {t('admin.delete')}
          </Button>
        )
      }
    >
      <Tabs defaultValue="generic">
        <Tabs.List>
          <Tabs.Tab value="generic" c={form.formState.errors.texts ? 'red' : undefined}>
            {t('admin.tabs.generic')}
          </Tabs.Tab>
          <Tabs.Tab
            value="layout"
            c={form.formState.errors.color || form.formState.errors.rank ? 'red' : undefined}
          >
            {t('admin.tabs.layout')}
          </Tabs.Tab>
          <Tabs.Tab value="visibility">{t('admin.tabs.visibility')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="generic" pt="sm">
          <Stack>
            {cultures.map((culture, index) => (
              <FormTextInput
                key={culture}
                control={form.control}
                name={`texts.${culture}`}
                label={`${t('admin.list_option.text')} (${culture})`}
                required={index === 0}
                data-testid={`list-option-text-${culture}`}
              />
            ))}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="layout" pt="sm">
          <Stack>
            <FormColorInput
              control={form.control}
              name="color"
              label={t('admin.list_option.color')}
              data-testid="list-option-color"
            />
            <FormNumberInput control={form.control} name="rank" label={t('admin.rank')} min={0} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="visibility" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            {t('admin.list_option.hidden_for')}
          </Text>
          <Stack gap={4}>
            <FormIdChecks
              control={form.control}
              name="hiddenFor"
              items={roles.map((role) => ({ id: role.id, label: role.name }))}
            />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </AdminModal>
  );
}
