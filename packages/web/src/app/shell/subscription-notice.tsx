import type { ActiveSubscriptionBody } from '@dossierbase/core';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { isBuiltRoute } from '../built-routes';

// Contract admins without an active subscription whose last one expired are told to renew.
export function SubscriptionNotice() {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(false);
  const subscription = useQuery({
    queryKey: queryKeys.subscription,
    queryFn: ({ signal }) => api.get<ActiveSubscriptionBody>('/subscription/active', undefined, signal),
  });
  const expired = !!subscription.data && !subscription.data.subscription && subscription.data.expired;
  return (
    <Modal
      opened={expired && !dismissed}
      onClose={() => setDismissed(true)}
      title={t('subscription.expired_title')}
      centered
    >
      <Text data-testid="subscription-expired">{t('subscription.expired_text')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => setDismissed(true)}>
          {t('common.close')}
        </Button>
        {isBuiltRoute('/subscriptions') && (
          <Button
            component={Link}
            to="/subscriptions"
            onClick={() => setDismissed(true)}
            data-testid="subscription-renew"
          >
            {t('subscription.renew')}
          </Button>
        )}
      </Group>
    </Modal>
  );
}
