import type { RoleDetail } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../api/client';
import { notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { NotFoundPage } from '../../app/not-found-page';
import { createItem, patchItem, roleName, useEnvironmentId, useRole } from './admin-api';
import { formError, useAdminMutation } from './admin-form';
import { AdminOnly } from './admin-guard';
import { FormTextInput } from './form-controls';
import { RoleDeleteModal } from './role-delete-modal';
import {
  type CultureTexts,
  cultureTextsSchema,
  requireOneText,
  useCultures,
  withFallback,
} from './translations';

function roleSchema(cultures: readonly string[]) {
  return z.object({ texts: cultureTextsSchema.superRefine(requireOneText(cultures)) });
}
type Values = z.input<ReturnType<typeof roleSchema>>;

/** The role's name per language; a role without translations shows its name in the first language. */
function roleTexts(cultures: readonly string[], role: RoleDetail | undefined): CultureTexts {
  return Object.fromEntries(
    cultures.map((culture, index) => {
      const translated = role?.translations.find((tr) => tr.culture === culture)?.name;
      return [culture, translated ?? (index === 0 ? (role?.name ?? '') : '')];
    }),
  );
}

export function RoleEditPage() {
  return (
    <AdminOnly>
      <RoleEdit />
    </AdminOnly>
  );
}

/** A new role (id 0) or an existing one: its name in each language of the environment, and delete. */
function RoleEdit() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const id = Number(useParams().id) || 0;
  const environment = useEnvironmentId();
  const cultures = useCultures();
  const { data: role, isLoading, error } = useRole(id);
  const [deleting, setDeleting] = useState(false);
  const schema = useMemo(() => roleSchema(cultures), [cultures]);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { texts: roleTexts(cultures, role) },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the role (re)loads; cultures are fixed while the page is open
  useEffect(() => {
    form.reset({ texts: roleTexts(cultures, role) });
  }, [role]);

  const first = cultures[0] ?? '';
  const save = useAdminMutation(
    form,
    (values: Values) => {
      // the name is the first language's; every language left empty takes it
      const texts = withFallback(cultures, values.texts);
      const body = {
        name: texts[first],
        translations: cultures.map((culture) => ({ culture, name: texts[culture] })),
      };
      return id
        ? patchItem<RoleDetail>('role', id, body)
        : createItem<RoleDetail>('role', { ...body, environment });
    },
    {
      environmentToo: true,
      fieldMap: { name: `texts.${first}` },
      onSuccess: () => {
        notifySuccess(t('admin.saved'));
        if (!id) navigate('/roles');
      },
    },
  );

  if (id && isApiError(error, 404)) return <NotFoundPage />;
  if (id && isLoading) return <Loader />;
  const message = formError(form);

  return (
    <>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack data-testid="role-form" maw={640}>
          <Title order={1} size="h3">
            {role ? t('admin.roles.edit_title', { name: roleName(role, locale) }) : t('admin.roles.new')}
          </Title>
          {message && (
            <Alert color="red" data-testid="form-error">
              {message}
            </Alert>
          )}
          <Paper withBorder p="md">
            <Stack>
              <Text size="sm" c="dimmed">
                {t('admin.roles.names_hint')}
              </Text>
              {cultures.map((culture, index) => (
                <FormTextInput
                  key={culture}
                  control={form.control}
                  name={`texts.${culture}`}
                  label={`${t('admin.name')} (${culture})`}
                  required={index === 0}
                  data-testid={`role-name-${culture}`}
                />
              ))}
            </Stack>
          </Paper>
          <Group justify="space-between">
            <Group gap="xs">
              {role && (
                <Button
                  color="red"
                  variant="light"
                  onClick={() => setDeleting(true)}
                  data-testid="role-delete"
                >
                  {t('admin.delete')}
                </Button>
              )}
            </Group>
            <Group gap="xs">
              <Button variant="default" component={Link} to="/roles">
                {t('common.back')}
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="role-save">
                {t('admin.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
      {role && (
        <RoleDeleteModal
          role={role}
          opened={deleting}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate('/roles')}
        />
      )}
    </>
  );
}
