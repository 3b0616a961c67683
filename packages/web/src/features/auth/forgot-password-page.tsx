import { forgotPasswordSchema } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { isApiError } from '../../api/client';
import { applyFieldErrors } from '../../api/errors';
import { translateMessage } from '../../i18n/messages';
import { forgotPassword } from './auth-api';
import { AuthLayout } from './auth-layout';

type ForgotValues = z.infer<typeof forgotPasswordSchema>;

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ForgotValues>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { username: '', email: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await forgotPassword(values);
      setSent(true);
    } catch (error) {
      if (applyFieldErrors(error, form.setError, t)) return;
      // 429: this address asked for too many links
      setFailure(isApiError(error, 429) ? translateMessage(t, error.serverMessage) : t('forgot.failed'));
    }
  });

  if (sent) {
    return (
      // The card carries the test id so that it includes the title.
      <AuthLayout title={t('forgot.sent_title')} testId="forgot-sent">
        <Stack>
          <IconMailCheck size={48} stroke={1.5} color="var(--mantine-color-indigo-6)" />
          <Text>{t('forgot.sent_text')}</Text>
          <Anchor component={Link} to="/login" data-testid="forgot-back-login">
            {t('forgot.back_to_login')}
          </Anchor>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('forgot.title')}>
      <form onSubmit={submit} noValidate data-testid="forgot-form">
        <Stack>
          <Text size="sm" c="dimmed">
            {t('forgot.text')}
          </Text>
          {failure && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="forgot-alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label={t('login.username')}
            withAsterisk
            autoComplete="username"
            {...form.register('username')}
            error={errors.username && translateMessage(t, errors.username.message)}
            data-testid="forgot-username"
          />
          <TextInput
            label={t('forgot.email')}
            type="email"
            withAsterisk
            autoComplete="email"
            {...form.register('email')}
            error={errors.email && translateMessage(t, errors.email.message)}
            data-testid="forgot-email"
          />
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="forgot-submit">
            {t('forgot.submit')}
          </Button>
          <Anchor component={Link} to="/login" size="sm" data-testid="forgot-back-login">
            {t('forgot.back_to_login')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
