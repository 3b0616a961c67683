import { Alert, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { tokenStore } from '../auth/session';
import { TwoFactorEnrolment } from './two-factor-enrolment';

/**
 * Shown on the environment page instead of the environments while an environment of the user
 * requires two-factor sign-in that they have not turned on: the server refuses that environment's
 * calls until they do.
 */
export function TwoFactorRequired() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" maw={720} data-testid="two-factor-required">
      <Stack>
        <Title order={2} size="h4">
          {t('security.required.title')}
        </Title>
        <Alert color="orange">{t('security.required.text')}</Alert>
        <TwoFactorEnrolment
          onDone={() => {
            const token = tokenStore.get();
            if (token) tokenStore.set({ ...token, two_factor_required: false });
          }}
        />
      </Stack>
    </Paper>
  );
}
