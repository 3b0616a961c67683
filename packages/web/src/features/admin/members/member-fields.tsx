import { ENVIRONMENT_CREDENTIALS } from '@dossierbase/core';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRoles } from '../admin-api';
import { FormCheckboxGroup } from '../form-controls';
import { credentialHint, credentialLabel } from './member-labels';

/** A form holding a member's roles (ids) and credentials. */
interface AccessValues extends FieldValues {
  roles?: number[];
  credentials?: string[];
}

/** The roles and credentials of a member in this environment: what the invitation and the member page set. */
export function MemberAccessFields<T extends AccessValues, O extends FieldValues>({
  control,
}: {
  control: Control<T, unknown, O>;
}) {
  const { t } = useTranslation();
  const { data: roles = [] } = useRoles();
  return (
    <>
      <FormCheckboxGroup
        control={control}
        name={'roles' as Path<T>}
        numeric
        label={t('admin.members.roles')}
        description={roles.length === 0 ? t('admin.members.no_roles') : undefined}
        options={roles.map((role) => ({
          value: String(role.id),
          label: role.name,
          testId: `member-role-${role.id}`,
        }))}
      />
      <FormCheckboxGroup
        control={control}
        name={'credentials' as Path<T>}
        label={t('admin.members.credentials_label')}
        options={ENVIRONMENT_CREDENTIALS.map((credential) => ({
          value: credential,
          label: credentialLabel(t, credential),
          description: credentialHint(t, credential),
          testId: `member-credential-${credential}`,
        }))}
      />
    </>
  );
}
