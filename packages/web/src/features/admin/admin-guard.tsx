import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isEnvironmentAdmin, useEnvironment } from '../environments/environment-store';

/** Admin configuration screens: ROLE_ADMIN or environment-admin; everybody else sees the 403 message. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const environment = useEnvironment();
  if (!isEnvironmentAdmin(environment)) {
    return (
      <Alert color="red" data-testid="admin-forbidden">
        {t('403_general_message')}
      </Alert>
    );
  }
  return <>{children}</>;
}
