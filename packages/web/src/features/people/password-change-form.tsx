import { REQUIRED_MESSAGE } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { applyFieldErrors, notifyError, notifySuccess } from '../../api/errors';
import { reconnectRealtime } from '../../app/realtime';
import { translateMessage } from '../../i18n/messages';
import { changePassword } from '../auth/auth-api';
import { NewPasswordFields, newPasswordSchema } from '../auth/password-fields';
import { setTokenData } from '../auth/session';

// The old password is required on the profile (spec doc 2 section 5, Passwords).
const schema = newPasswordSchema.safeExtend({
  current_password: z.string().min(1, REQUIRED_MESSAGE),
});
type Values = z.infer<typeof schema>;

export function PasswordChangeForm() {
  const { t } = useTranslation();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { current_password: '', password: '', repeat: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async ({ current_password, password }) => {
    try {
      const token = await changePassword(password, current_password);
      // The new password ended every other session, the live updates' connection's too.
      setTokenData(token);
      reconnectRealtime();
      form.reset();
      notifySuccess(t('profile.password.changed'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, t)) notifyError(error, t);
    }
  });

  return (
    <Paper withBorder p="lg">
      <form onSubmit={submit} noValidate data-testid="password-change-form">
        <Stack maw={480}>
          <Title order={2} size="h4">
            {t('profile.password.title')}
          </Title>
          <PasswordInput
            label={t('profile.password.current')}
            withAsterisk
            autoComplete="current-password"
            {...form.register('current_password')}
            error={errors.current_password && translateMessage(t, errors.current_password.message)}
            visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
            data-testid="password-change-current"
          />
          <NewPasswordFields register={form.register} errors={errors} testIdPrefix="password-change" />
          <Group>
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="password-change-submit">
              {t('profile.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
