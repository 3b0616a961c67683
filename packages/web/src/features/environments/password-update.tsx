import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors, notifyError, notifySuccess } from '../../api/errors';
import { disconnectRealtime } from '../../app/realtime';
import { changePassword } from '../auth/auth-api';
import { NewPasswordFields, type NewPasswordValues, newPasswordSchema } from '../auth/password-fields';
import { setTokenData } from '../auth/session';

// Shown instead of the environment grid while the token says the password must be renewed.
export function PasswordUpdate() {
  const { t } = useTranslation();
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', repeat: '' },
  });

  const submit = form.handleSubmit(async ({ password }) => {
    try {
      const token = await changePassword(password);
      // The new password ended every earlier session, the one the live-update socket signed in with too:
      // the next environment opened connects again with the new one.
      disconnectRealtime();
      setTokenData({ ...token, re_pwd: false });
      notifySuccess(t('password.updated'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, t)) notifyError(error, t);
    }
  });

  return (
    <Paper withBorder p="xl" maw={480} mx="auto" mt="xl" data-testid="password-update">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h3">
            {t('password.update_title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('password.update_text')}
          </Text>
          <NewPasswordFields
            register={form.register}
            errors={form.formState.errors}
            testIdPrefix="password-update"
          />
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="password-update-submit">
            {t('password.update_submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
