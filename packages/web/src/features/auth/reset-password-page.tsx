import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { applyFieldErrors, errorMessage } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import { checkResetToken, resetPassword } from './auth-api';
import { AuthLayout } from './auth-layout';
import { NewPasswordFields, type NewPasswordValues, newPasswordSchema } from './password-fields';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const check = useQuery({
    queryKey: queryKeys.resetToken(token),
    queryFn: ({ signal }) => checkResetToken(token, signal),
    retry: false,
    staleTime: 0,
  });
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', repeat: '' },
  });

  const submit = form.handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await resetPassword({ token, password });
      setDone(true);
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, t)) setFailure(errorMessage(error, t));
    }
  });

  const loginLink = (
    <Anchor component={Link} to="/login" data-testid="reset-login-link">
      {t('reset.to_login')}
    </Anchor>
  );

  let body: ReactNode;
  if (check.isPending) {
    body = (
      <Center>
        <Loader />
      </Center>
    );
  } else if (check.isError || !check.data?.valid) {
    body = (
      <Stack data-testid="reset-invalid">
        <Alert color="red" icon={<IconAlertCircle size={18} />}>
          {t('reset.invalid')}
        </Alert>
        <Anchor component={Link} to="/forgot_password">
          {t('login.forgot_password')}
        </Anchor>
      </Stack>
    );
  } else if (done) {
    body = (
      <Stack data-testid="reset-done">
        <Alert color="green" icon={<IconCircleCheck size={18} />}>
          {t('reset.done')}
        </Alert>
        {loginLink}
      </Stack>
    );
  } else {
    body = (
      <form onSubmit={submit} noValidate data-testid="reset-form">
        <Stack>
          <Text size="sm" c="dimmed">
            {t('reset.text', { username: check.data.username })}
          </Text>
          {failure && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="reset-alert">
              {failure}
            </Alert>
          )}
          <NewPasswordFields register={form.register} errors={form.formState.errors} testIdPrefix="reset" />
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="reset-submit">
            {t('reset.submit')}
          </Button>
          {loginLink}
        </Stack>
      </form>
    );
  }

  return <AuthLayout title={t('reset.title')}>{body}</AuthLayout>;
}
