import { PERMISSION_ACTIONS } from '@dossierbase/core';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  Popover,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyError } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import {
  adminKeys,
  entityName,
  putPermission,
  roleName,
  useEntities,
  useEnvironmentId,
  usePermissions,
  useRoles,
} from './admin-api';
import { AdminOnly } from './admin-guard';
import { permissionActionLabel } from './labels';

export function PermissionsPage() {
  return (
    <AdminOnly>
      <PermissionsMatrix />
    </AdminOnly>
  );
}

/**
 * Every entity (rows) by every role (columns): each cell holds the role's permissions on the entity
 * and saves each change at once, through the call the entity editor's Permissions tab saves with.
 */
function PermissionsMatrix() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: entities, isLoading: entitiesLoading } = useEntities();
  const { data: roles, isLoading: rolesLoading } = useRoles();
  const { data: permissions } = usePermissions();
  const sorted = [...(entities ?? [])].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const actionsOf = (entity: number, role: number) =>
    permissions?.find((p) => p.def_dossier_id === entity && p.role_id === role)?.actions ?? [];

  return (
    <Stack data-testid="permissions-page">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('menu.admin.permissions')}
        </Title>
        <Button variant="default" component={Link} to="/roles">
          {t('menu.admin.roles')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('admin.permissions.intro')}
      </Text>
      {(entitiesLoading || rolesLoading || !permissions) && <Loader />}
      {roles && roles.length === 0 && (
        <Text data-testid="permissions-no-roles">
          {t('admin.permissions.no_roles')}{' '}
          <Anchor component={Link} to="/role/0">
            {t('admin.roles.new')}
          </Anchor>
        </Text>
      )}
      {entities && sorted.length === 0 && <Text c="dimmed">{t('menu.no_entities')}</Text>}
      {roles && roles.length > 0 && sorted.length > 0 && permissions && (
        <ScrollArea type="auto">
          <Table withTableBorder withColumnBorders striped data-testid="permissions-matrix">
            <Table.Caption>{t('admin.permissions.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('admin.entity')}</Table.Th>
                {roles.map((role) => (
                  <Table.Th key={role.id} scope="col" ta="center" data-testid={`permissions-role-${role.id}`}>
                    {roleName(role, locale)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sorted.map((entity) => (
                <Table.Tr key={entity.id} data-testid={`permissions-entity-${entity.id}`}>
                  <Table.Th scope="row">{entityName(entity, locale)}</Table.Th>
                  {roles.map((role) => (
                    <Table.Td key={role.id} ta="center">
                      <PermissionCell
                        entity={entity.id}
                        role={role.id}
                        entityLabel={entityName(entity, locale)}
                        roleLabel={roleName(role, locale)}
                        actions={actionsOf(entity.id, role.id)}
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Stack>
  );
}

interface CellProps {
  entity: number;
  role: number;
  entityLabel: string;
  roleLabel: string;
  /** as stored */
  actions: readonly string[];
}

/**
 * One role's permissions on one entity: a button that names them for screen readers and opens a
 * checklist. Each tick is saved at once; saves of one cell run one after the other (one mutation
 * scope), each sending the whole list as it was ticked, so the last tick is what stays.
 */
function PermissionCell({ entity, role, entityLabel, roleLabel, actions }: CellProps) {
  const { t } = useTranslation();
  const environment = useEnvironmentId();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [ticked, setTicked] = useState<readonly string[]>(actions);
  const save = useMutation({
    scope: { id: `permission-${entity}-${role}` },
    mutationFn: (next: string[]) => putPermission({ environment, defDossier: entity, role, actions: next }),
    onError: (error) => notifyError(error, t),
    // the entity editor's Permissions tab reads the same permissions
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'permission'] }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the stored permissions, not a save under way
  useEffect(() => {
    if (!save.isPending) setTicked(actions);
  }, [actions]);

  const change = (next: string[]) => {
    setTicked(next);
    save.mutate(next);
  };
  const toggle = (action: string, on: boolean) =>
    change(PERMISSION_ACTIONS.filter((a) => (a === action ? on : ticked.includes(a))));
  const granted = `${ticked.length}/${PERMISSION_ACTIONS.length}`;

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      trapFocus
      returnFocus
      position="bottom"
      withArrow
      shadow="md"
    >
      <Popover.Target>
        <Button
          size="compact-sm"
          variant={ticked.length ? 'light' : 'subtle'}
          color={ticked.length ? undefined : 'gray'}
          onClick={() => setOpened((open) => !open)}
          aria-label={t('admin.permissions.cell', { role: roleLabel, entity: entityLabel, granted })}
          data-testid={`permission-cell-${entity}-${role}`}
        >
          {granted}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid={`permission-popover-${entity}-${role}`}>
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t('admin.permissions.cell_title', { role: roleLabel, entity: entityLabel })}
          </Text>
          <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
            {PERMISSION_ACTIONS.map((action) => (
              <Checkbox
                key={action}
                size="xs"
                label={permissionActionLabel(t, action)}
                checked={ticked.includes(action)}
                onChange={(event) => toggle(action, event.currentTarget.checked)}
                data-testid={`permission-${entity}-${role}-${action}`}
              />
            ))}
          </SimpleGrid>
          <Group gap="xs" justify="space-between">
            <Group gap="xs">
              <Button size="compact-xs" variant="default" onClick={() => change([...PERMISSION_ACTIONS])}>
                {t('admin.permissions.all')}
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => change([])}>
                {t('admin.permissions.none')}
              </Button>
            </Group>
            <Text size="xs" c="dimmed" aria-live="polite" data-testid={`permission-state-${entity}-${role}`}>
              {save.isPending
                ? t('admin.permissions.saving')
                : save.isSuccess
                  ? t('admin.permissions.saved')
                  : ''}
            </Text>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
