import { type DisplayPosition, displayPositionCreateSchema } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { notifySuccess } from '../../../api/errors';
import { useEnvironment } from '../../environments/environment-store';
import { createItem, deleteItem, patchItem } from '../admin-api';
import { formError, useAdminMutation } from '../admin-form';
import { AdminModal } from '../admin-modal';
import { FormSelect, FormSwitch, FormTextInput } from '../form-controls';
import { cultureTexts, cultureTextsSchema, requireOneText, useCultures, withFallback } from '../translations';

const POSITION_TYPES = ['main_content', 'tab', 'meta', 'footer'] as const;
const core = displayPositionCreateSchema.shape;
const translationName = core.translations.unwrap().element.shape.name;

/** A new position has one name for every language; an existing one a name per language. */
function positionSchema(editing: boolean, cultures: readonly string[]) {
  return z.object({
    type: core.type,
    hide: z.boolean(),
    name: editing ? z.string() : translationName,
    names: editing ? cultureTextsSchema.superRefine(requireOneText(cultures)) : cultureTextsSchema,
  });
}
type Values = z.input<ReturnType<typeof positionSchema>>;

/** Adds a display position (tab, main content, meta, footer) or edits, hides or deletes one. */
export function PositionModal({
  opened,
  onClose,
  defDossier,
  count,
  position,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  count: number;
  position?: DisplayPosition;
}) {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const cultures = useCultures();
  const schema = useMemo(() => positionSchema(!!position, cultures), [position, cultures]);
  const form = useForm<Values>({ resolver: zodResolver(schema) });

  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures are fixed while the modal is open
  useEffect(() => {
    if (!opened) return;
    form.reset({
      type: position?.type ?? (count === 0 ? 'main_content' : 'tab'),
      hide: position?.hide ?? false,
      name: '',
      names: cultureTexts(cultures, position?.translations, (tr) => tr.name),
    });
  }, [opened, count, position]);

  const save = useAdminMutation(
    form,
    (values: Values) => {
      if (position) {
        const names = withFallback(cultures, values.names);
        return patchItem('displayposition', position.id, {
          type: values.type,
          hide: values.hide,
          translations: cultures.map((culture) => {
            const before = position.translations.find((tr) => tr.culture === culture);
            return {
              culture,
              name: names[culture],
              ...(before?.name_plural ? { name_plural: before.name_plural } : {}),
            };
          }),
        });
      }
      return createItem('displayposition', {
        environment: environment?.id,
        defDossier,
        uuid: crypto.randomUUID(),
        type: values.type,
        rank: count,
        translations: cultures.map((culture) => ({ culture, name: values.name.trim() })),
      });
    },
    { onSuccess: onClose, fieldMap: { translations: position ? `names.${cultures[0]}` : 'name' } },
  );
  // The server refuses while display items are in the position; its message shows above the form.
  const remove = useAdminMutation(form, (id: number) => deleteItem('displayposition', id), {
    onSuccess: () => {
      notifySuccess(t('admin.saved'));
      onClose();
    },
  });

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      title={position ? t('admin.position.edit') : t('admin.position.add')}
      testId="position-modal"
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      pending={save.isPending || remove.isPending}
      error={formError(form)}
      saveTestId="position-save"
      actions={
        position && (
          <Button
            color="red"
            variant="light"
            loading={remove.isPending}
            onClick={() => {
              if (window.confirm(t('admin.position.delete_confirm'))) remove.mutate(position.id);
            }}
            data-testid="position-delete"
          >
            {t('admin.position.delete')}
          </Button>
        )
      }
    >
      <FormSelect
        control={form.control}
        name="type"
        label={t('admin.type')}
        data={POSITION_TYPES.map((value) => ({ value, label: t(`admin.position.types.${value}`) }))}
        allowDeselect={false}
        data-testid="position-type"
      />
      {position ? (
        <>
          {cultures.map((culture, index) => (
            <FormTextInput
              key={culture}
              control={form.control}
              name={`names.${culture}`}
              label={`${t('admin.name')} (${culture})`}
              required={index === 0}
              data-testid={`position-name-${culture}`}
            />
          ))}
          <FormSwitch
            control={form.control}
            name="hide"
            label={t('admin.position.hide')}
            data-testid="position-hide"
          />
        </>
      ) : (
        <FormTextInput
          control={form.control}
          name="name"
          label={t('admin.name')}
          required
          data-testid="position-name"
        />
      )}
    </AdminModal>
  );
}
