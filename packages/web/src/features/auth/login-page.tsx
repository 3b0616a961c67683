import {
  LOGIN_MESSAGES,
  type LoginErrorBody,
  loginSchema,
  otpCodeSchema,
  recoveryCodeSchema,
  SSO_ERRORS,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle, IconBrandWindows } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../api/client';
import { useClientConfig } from '../../api/config';
import { translateMessage } from '../../i18n/messages';
import { keyLoginCheck, loginCheck } from './auth-api';
import { AuthLayout } from './auth-layout';
import { consumeReferer, setTokenData, useTokenData } from './session';

type Credentials = z.infer<typeof loginSchema>;

function loginFailureMessage(error: unknown, t: TFunction): string {
  if (isApiError(error, 401) || isApiError(error, 429)) {
    const body = error.body as Partial<LoginErrorBody> | null;
    return translateMessage(
      t,
      body?.message ?? (error.status === 429 ? LOGIN_MESSAGES.tooMany : LOGIN_MESSAGES.incorrect),
    );
  }
  return t('common.something_went_wrong');
}

/**
 * The message for the `error` a failed Google or Azure sign-in comes back with: a known code has its
 * own, anything else a general one. The parameter itself is never shown.
 */
export function ssoErrorMessage(code: string | null, t: TFunction): string | null {
  if (code === null) return null;
  const known = (SSO_ERRORS as readonly string[]).includes(code);
  return known ? t(`login.errors.${code}`) : t('login.errors.unknown');
}

function needsOtp(error: unknown): boolean {
  return isApiError(error, 401) && (error.body as Partial<LoginErrorBody> | null)?.otp_required === true;
}

export function LoginPage() {
  const { t } = useTranslation();
  const token = useTokenData();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const key = params.get('key');
  const keyUsername = params.get('username');
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [message, setMessage] = useState<string | null>(() => ssoErrorMessage(params.get('error'), t));
  const [keyLoginBusy, setKeyLoginBusy] = useState(Boolean(key && keyUsername));
  const keyLoginStarted = useRef(false);

  // Where the signed-in page goes. One navigation only: the token re-renders this page, whose
  // redirect below would otherwise race a second one (and win while a lazy page is loading).
  const landing = useRef('/environment');
  const finishLogin = (data: Awaited<ReturnType<typeof loginCheck>>) => {
    landing.current = consumeReferer();
    setTokenData(data);
  };

  useEffect(() => {
    if (!key || !keyUsername || keyLoginStarted.current) return;
    keyLoginStarted.current = true;
    keyLoginCheck(keyUsername, key)
      .then((data) => {
        // Key login always forces a password update, shown on the environment page.
        setTokenData({ ...data, re_pwd: true });
        navigate('/environment', { replace: true });
      })
      .catch(() => {
        setMessage(t('login_incorrect'));
        setKeyLoginBusy(false);
      });
  }, [key, keyUsername, navigate, t]);

  if (token && !key && !keyLoginBusy) return <Navigate to={landing.current} replace />;

  if (keyLoginBusy) {
    return (
      <AuthLayout title={t('login.title')}>
        <Group justify="center" data-testid="key-login-busy">
          <Loader />
          <Text>{t('login.key_login_busy')}</Text>
        </Group>
      </AuthLayout>
    );
  }

  if (credentials) {
    return (
      <AuthLayout title={t('login.otp_title')}>
        <OtpForm
          credentials={credentials}
          message={message}
          onMessage={setMessage}
          onSuccess={(data) => finishLogin(data)}
          onBack={() => {
            setCredentials(null);
            setMessage(null);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.title')}>
      <CredentialsForm
        message={message}
        onMessage={setMessage}
        onSuccess={(data) => finishLogin(data)}
        onOtpRequired={(values) => {
          setMessage(null);
          setCredentials(values);
        }}
      />
    </AuthLayout>
  );
}

function MessageAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="login-alert">
      {message}
    </Alert>
  );
}

interface CredentialsFormProps {
  message: string | null;
  onMessage: (message: string | null) => void;
  onSuccess: (data: Awaited<ReturnType<typeof loginCheck>>) => void;
  onOtpRequired: (values: Credentials) => void;
}

function CredentialsForm({ message, onMessage, onSuccess, onOtpRequired }: CredentialsFormProps) {
  const { t } = useTranslation();
  const { config } = useClientConfig();
  const form = useForm<Credentials>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  });
  const [username, password] = form.watch(['username', 'password']);
  const filled = Boolean(username?.trim() && password);

  const submit = form.handleSubmit(async (values) => {
    onMessage(null);
    try {
      onSuccess(await loginCheck(values));
    } catch (error) {
      if (needsOtp(error)) onOtpRequired(values);
      else onMessage(loginFailureMessage(error, t));
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="login-form">
      <Stack>
        <MessageAlert message={message} />
        <TextInput
          label={t('login.username')}
          autoComplete="username"
          autoFocus
          {...form.register('username')}
          error={
            form.formState.errors.username && translateMessage(t, form.formState.errors.username.message)
          }
          data-testid="login-username"
        />
        <PasswordInput
          label={t('login.password')}
          autoComplete="current-password"
          {...form.register('password')}
          error={
            form.formState.errors.password && translateMessage(t, form.formState.errors.password.message)
          }
          visibilityToggleButtonProps={{
            'data-testid': 'login-password-toggle',
            'aria-label': t('password.toggle'),
          }}
          data-testid="login-password"
        />
        <Group justify="flex-end">
          <Anchor component={Link} to="/forgot_password" size="sm" data-testid="login-forgot-link">
            {t('login.forgot_password')}
          </Anchor>
        </Group>
        <Button
          type="submit"
          disabled={!filled}
          loading={form.formState.isSubmitting}
          data-testid="login-submit"
        >
          {t('login.continue')}
        </Button>
        {(config.sso.google || config.sso.azure) && (
          <>
            <Divider label={t('login.or')} labelPosition="center" data-testid="login-or" />
            {config.sso.google && (
              <Button
                variant="default"
                leftSection={<IconBrandGoogle size={18} />}
                onClick={() => window.location.assign('/api/connect/google')}
                data-testid="login-google"
              >
                {t('login.google')}
              </Button>
            )}
            {config.sso.azure && (
              <Button
                variant="default"
                leftSection={<IconBrandWindows size={18} />}
                onClick={() => window.location.assign('/api/connect/azure')}
                data-testid="login-azure"
              >
                {t('login.microsoft')}
              </Button>
            )}
          </>
        )}
      </Stack>
    </form>
  );
}

const otpFormSchema = z.object({ code: otpCodeSchema });
const recoveryFormSchema = z.object({ code: recoveryCodeSchema });

interface OtpFormProps {
  credentials: Credentials;
  message: string | null;
  onMessage: (message: string | null) => void;
  onSuccess: (data: Awaited<ReturnType<typeof loginCheck>>) => void;
  onBack: () => void;
}

function OtpForm({ credentials, message, onMessage, onSuccess, onBack }: OtpFormProps) {
  // A recovery code stands in for the app's code once (lost phone).
  const [recovery, setRecovery] = useState(false);
  return (
    <CodeForm
      key={recovery ? 'recovery' : 'app'}
      recovery={recovery}
      credentials={credentials}
      message={message}
      onMessage={onMessage}
      onSuccess={onSuccess}
      onBack={onBack}
      onSwitch={() => {
        onMessage(null);
        setRecovery(!recovery);
      }}
    />
  );
}

function CodeForm({
  recovery,
  credentials,
  message,
  onMessage,
  onSuccess,
  onBack,
  onSwitch,
}: OtpFormProps & { recovery: boolean; onSwitch: () => void }) {
  const { t } = useTranslation();
  const form = useForm<{ code: string }>({
    resolver: zodResolver(recovery ? recoveryFormSchema : otpFormSchema),
    defaultValues: { code: '' },
  });
  const code = form.watch('code');

  const submit = form.handleSubmit(async ({ code: value }) => {
    onMessage(null);
    try {
      onSuccess(await loginCheck(credentials, value));
    } catch (error) {
      onMessage(loginFailureMessage(error, t));
    }
  });

  const codeField = form.register('code');
  return (
    <form onSubmit={submit} noValidate data-testid="otp-form">
      <Stack>
        <Text size="sm" c="dimmed">
          {recovery ? t('login.recovery_text') : t('login.otp_text')}
        </Text>
        <MessageAlert message={message} />
        <TextInput
          label={recovery ? t('login.recovery_code') : t('login.otp_code')}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          maxLength={recovery ? 11 : 6}
          autoFocus
          {...codeField}
          onChange={(event) => {
            // Digits only: strip anything else as it is typed.
            if (!recovery) event.target.value = event.target.value.replace(/\D/g, '').slice(0, 6);
            void codeField.onChange(event);
          }}
          error={form.formState.errors.code && translateMessage(t, form.formState.errors.code.message)}
          data-testid="otp-code"
        />
        <Button type="submit" disabled={!code} loading={form.formState.isSubmitting} data-testid="otp-submit">
          {t('login.verify')}
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={onSwitch}
          data-testid="otp-recovery-toggle"
        >
          {recovery ? t('login.use_app_code') : t('login.use_recovery_code')}
        </Anchor>
        <Anchor component="button" type="button" size="sm" onClick={onBack} data-testid="otp-back">
          {t('common.back')}
        </Anchor>
      </Stack>
    </form>
  );
}
