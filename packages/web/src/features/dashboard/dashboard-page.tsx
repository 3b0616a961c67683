import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useEnvironment } from '../environments/environment-store';

export function DashboardPage() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  return (
    <Stack gap="xs" data-testid="dashboard-page">
      <Title order={1}>{t('dashboard.title')}</Title>
      <Title order={3} fw={500} data-testid="dashboard-environment-name">
        {environment?.name}
      </Title>
      {environment?.description && (
        <Text c="dimmed" style={{ whiteSpace: 'pre-wrap' }} data-testid="dashboard-environment-description">
          {environment.description}
        </Text>
      )}
    </Stack>
  );
}
