import { Alert, Center, Loader, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { actionErrorMessage } from '../../api/errors';

// What a block shows while its data loads and when its data call fails ('Something went wrong', with
// the server's reason when it gives one); the other blocks still draw.

export function BlockLoading({ height }: { height: number }) {
  const { t } = useTranslation();
  return (
    // the label on the status region: a loader's span may not carry one
    <Center h={Math.min(height, 80)} role="status" aria-label={t('dashboard.loading')}>
      <Loader size="sm" />
    </Center>
  );
}

export function BlockError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const reason = actionErrorMessage(error, t);
  return (
    <Alert color="red" icon={<IconAlertTriangle size={16} />} data-testid="block-error" p="xs">
      <Text size="sm">{t('common.something_went_wrong')}</Text>
      {reason !== t('common.something_went_wrong') && <Text size="xs">{reason}</Text>}
    </Alert>
  );
}
