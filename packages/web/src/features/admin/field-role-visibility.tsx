import { type DefDossierDefField, defDossierDefFieldCreateSchema, PERMISSION_TYPES } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Fieldset, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { notifySuccess } from '../../api/errors';
import { patchItem, useRoles } from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { FormIdChecks, FormRadioGroup } from './form-controls';

// Who sees a data field: set once on the field, it holds in every view (the dossier page, lists,
// searches, summaries, sorting, filters and aggregations). A display item's own roles may narrow it
// for that view, never widen it (server: policy/field-visibility.ts).

// Named apart from a display item's roles: the control sits inside the display item's form, and
// radio buttons of one name in one form are one group.
const core = defDossierDefFieldCreateSchema.shape;
const schema = z.object({ field_roles: core.roles, field_permissions_type: core.permissions_type });
type Values = z.input<typeof schema>;
type Saved = z.output<typeof schema>;

const valuesOf = (field: DefDossierDefField): Values => ({
  field_roles: field.roles ?? [],
  field_permissions_type: field.permissions_type ?? 'EXCLUDE_SELECTED_ROLES',
});

/** The role visibility of one data field, saved on its own (PATCH /defdossierdeffield/{id}). */
export function FieldRoleVisibility({ field }: { field: DefDossierDefField }) {
  const { t } = useTranslation();
  const { data: roles = [] } = useRoles();
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(field),
  });
  const save = useAdminMutation(
    form,
    (values: Saved) =>
      patchItem<DefDossierDefField>('defdossierdeffield', field.id, {
        roles: values.field_roles,
        permissions_type: values.field_permissions_type,
      }),
    {
      onSuccess: () => notifySuccess(t('admin.field_visibility.saved', { name: field.name })),
      fieldMap: { roles: 'field_roles', permissions_type: 'field_permissions_type' },
    },
  );
  const { reset } = form;
  // another field, or the same one saved: start from what is stored
  useEffect(() => reset(valuesOf(field)), [field, reset]);
  const error = formError(form);

  return (
    <Fieldset legend={t('admin.field_visibility.title', { name: field.name })} data-testid="field-visibility">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('admin.field_visibility.hint')}
        </Text>
        <FormRadioGroup
          control={form.control}
          name="field_permissions_type"
          label={t('admin.display.permission_type')}
          options={PERMISSION_TYPES.map((value) => ({
            value,
            label: t(`admin.display.permission_types.${value}`),
          }))}
        />
        <ScrollArea.Autosize mah={200}>
          <Stack gap={4}>
            <FormIdChecks
              control={form.control}
              name="field_roles"
              items={roles.map((role) => ({
                id: role.id,
                label: role.name,
                testId: `field-visibility-role-${role.id}`,
              }))}
            />
          </Stack>
        </ScrollArea.Autosize>
        {error ? <Alert color="red">{error}</Alert> : null}
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="light"
            disabled={!form.formState.isDirty}
            loading={save.isPending}
            onClick={form.handleSubmit((values) => save.mutate(values))}
            data-testid="field-visibility-save"
          >
            {t('admin.field_visibility.save')}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
