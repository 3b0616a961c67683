import type { RoleDetail, RoleUsage } from '@dossierbase/core';
import { Alert, List, Loader, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { errorMessage, notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { deleteRole, entityName, roleName, useRefreshAdmin, useRoleUsage } from './admin-api';
import { AdminModal } from './admin-modal';
import { viewLabel } from './labels';

/** Each kind of use that has entries, as a label and the places it names. */
function usageLines(
  usage: RoleUsage,
  t: TFunction,
  locale: string | null,
): { key: string; label: string; places: string }[] {
  const entity = (ref: RoleUsage['permissions'][number]) => entityName(ref, locale);
  const more = usage.member_count - usage.members.length;
  const lines = [
    {
      key: 'members',
      label: t('admin.roles.usage.members', { count: usage.member_count }),
      places: [
        ...usage.members.map((member) => member.username),
        ...(more > 0 ? [t('admin.roles.usage.more', { count: more })] : []),
      ],
    },
    { key: 'permissions', label: t('admin.roles.usage.permissions'), places: usage.permissions.map(entity) },
    { key: 'visibility', label: t('admin.roles.usage.visibility'), places: usage.visibility.map(entity) },
    {
      key: 'data_fields',
      label: t('admin.roles.usage.data_fields'),
      places: usage.data_fields.map((field) => `${field.name} (${entity(field.def_dossier)})`),
    },
    {
      key: 'display_items',
      label: t('admin.roles.usage.display_items'),
      places: usage.display_items.map(
        (item) => `${item.name || `#${item.id}`} (${entity(item.def_dossier)}, ${viewLabel(t, item.view)})`,
      ),
    },
    {
      key: 'list_options',
      label: t('admin.roles.usage.list_options'),
      places: usage.list_options.map((option) => `${option.text} (${option.def_field.name})`),
    },
  ];
  return lines
    .filter((line) => line.places.length > 0)
    .map((line) => ({ ...line, places: [...new Set(line.places)].join(', ') }));
}

/**
 * Deleting a role: a role that nothing uses goes after a confirmation; a role in use is refused
 * with where it is used, and can be taken out of all those places and deleted in one call.
 */
export function RoleDeleteModal({
  role,
  opened,
  onClose,
  onDeleted,
}: {
  role: RoleDetail;
  opened: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const refresh = useRefreshAdmin();
  const usage = useRoleUsage(role.id, opened);
  const lines = usage.data ? usageLines(usage.data, t, locale) : [];
  const inUse = lines.length > 0;
  const remove = useMutation({
    mutationFn: () => deleteRole(role.id, inUse),
    onSuccess: async () => {
      notifySuccess(t('admin.roles.deleted'));
      onDeleted();
      await refresh(true);
    },
    // taken into use meanwhile: the refusal lists where
    onError: (error) => (isApiError(error, 400) ? usage.refetch() : undefined),
  });
  const name = roleName(role, locale);
  const failed = remove.error && !isApiError(remove.error, 400) ? errorMessage(remove.error, t) : undefined;

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      title={t('admin.roles.delete_title', { name })}
      testId="role-delete-modal"
      onSubmit={() => remove.mutate()}
      pending={remove.isPending}
      saveDisabled={!usage.data || usage.isFetching}
      saveColor="red"
      saveLabel={inUse ? t('admin.roles.detach') : t('admin.delete')}
      saveTestId="role-delete-confirm"
      error={failed}
    >
      {!usage.data ? (
        <Loader size="sm" />
      ) : inUse ? (
        <>
          <Alert color="orange" data-testid="role-in-use">
            {t('admin.roles.in_use', { name })}
          </Alert>
          <List spacing={4} size="sm" data-testid="role-usage">
            {lines.map((line) => (
              <List.Item key={line.key} data-testid={`role-usage-${line.key}`}>
                <Text span fw={600} size="sm">
                  {line.label}:
                </Text>{' '}
                {line.places}
              </List.Item>
            ))}
          </List>
          <Text size="sm">{t('admin.roles.detach_hint')}</Text>
        </>
      ) : (
        <Text size="sm" data-testid="role-delete-question">
          {t('admin.roles.delete_confirm', { name })}
        </Text>
      )}
    </AdminModal>
  );
}
