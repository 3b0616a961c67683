import { PERMISSION_ACTIONS, type RoleDetail } from '@dossierbase/core';
import { Checkbox, ScrollArea, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../app/locale-provider';
import { roleName } from './admin-api';
import { permissionActionLabel } from './labels';

/** Actions per role id, as the entity editor holds them. */
export type PermissionMatrixValue = Record<number, string[]>;

/**
 * The entity's permissions in its editor: a row per role, a checkbox per action, saved with the
 * entity (putPermission, as the /permissions matrix saves each cell).
 */
export function PermissionMatrix({
  roles,
  value,
  onChange,
}: {
  roles: readonly RoleDetail[];
  value: PermissionMatrixValue;
  onChange: (next: PermissionMatrixValue) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const toggle = (role: number, action: string, on: boolean) =>
    onChange({
      ...value,
      [role]: on ? [...(value[role] ?? []), action] : (value[role] ?? []).filter((a) => a !== action),
    });
  return (
    <ScrollArea>
      <Table withTableBorder data-testid="entity-permissions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.role')}</Table.Th>
            {PERMISSION_ACTIONS.map((action) => (
              <Table.Th key={action} style={{ fontSize: 11 }}>
                {permissionActionLabel(t, action)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {roles.map((role) => (
            <Table.Tr key={role.id}>
              <Table.Td>{roleName(role, locale)}</Table.Td>
              {PERMISSION_ACTIONS.map((action) => (
                <Table.Td key={action}>
                  <Checkbox
                    size="xs"
                    aria-label={`${roleName(role, locale)} ${permissionActionLabel(t, action)}`}
                    checked={(value[role.id] ?? []).includes(action)}
                    onChange={(event) => toggle(role.id, action, event.currentTarget.checked)}
                    data-testid={`permission-${role.id}-${action}`}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
