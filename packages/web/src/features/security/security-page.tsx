import {
  describeUserAgent,
  PASSWORD_POLICY_MAX,
  PASSWORD_POLICY_MIN,
  SESSION_HOURS_MAX,
  type SecurityPolicy,
  type UserSessionInfo,
} from '@dossierbase/core';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import {
  actionErrorMessage,
  errorMessage,
  notifyError,
  notifyFailure,
  notifySuccess,
} from '../../api/errors';
import { formatDate } from '../../app/format';
import { translateMessage } from '../../i18n/messages';
import { isEnvironmentAdmin, useEnvironment } from '../environments/environment-store';
import {
  disableTwoFactor,
  endOtherSessions,
  renewRecoveryCodes,
  saveSecurityPolicy,
  securityKeys,
  useSecurityOverview,
  useSecurityPolicy,
  useSessions,
} from './security-api';
import { RecoveryCodesList, TwoFactorEnrolment } from './two-factor-enrolment';

// /security: the user's two-factor sign-in and open sessions; for the environment's admins also the
// environment's security policy (issue 16, part 8).
export function SecurityPage() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const admin = isEnvironmentAdmin(environment);
  return (
    <Stack data-testid="security-page">
      <Title order={1} size="h3">
        {t('security.title')}
      </Title>
      <TwoFactorSection />
      <SessionsSection />
      {admin && environment && <PolicySection environment={environment.id} name={environment.name} />}
    </Stack>
  );
}

function TwoFactorSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const overview = useSecurityOverview();
  const [asking, setAsking] = useState<'disable' | 'renew' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const data = overview.data;
  // What had the focus (the codes' button, the switched-off section's buttons) is gone: the focus
  // goes to the section's heading, where the new state is read from.
  const title = useRef<HTMLHeadingElement>(null);
  const focusTitle = () => requestAnimationFrame(() => title.current?.focus());
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: securityKeys.overview });
    focusTitle();
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="two-factor-title">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4" id="two-factor-title" ref={title} tabIndex={-1}>
            {t('security.two_factor.title')}
          </Title>
          {data && (
            <Badge color={data.two_factor ? 'green' : 'gray'} variant="light" data-testid="two-factor-state">
              {data.two_factor ? t('security.two_factor.on') : t('security.two_factor.off')}
            </Badge>
          )}
        </Group>
        {!data ? (
          <Loader size="sm" />
        ) : codes ? (
          <RecoveryCodesList
            codes={codes}
            onDone={() => {
              setCodes(null);
              focusTitle();
            }}
          />
        ) : data.two_factor ? (
          <Stack align="flex-start">
            <Text data-testid="recovery-codes-left">
              {t('security.two_factor.codes_left', { number: data.recovery_codes_left })}
            </Text>
            <Group>
              <Button variant="default" onClick={() => setAsking('renew')} data-testid="recovery-codes-renew">
                {t('security.recovery.renew')}
              </Button>
              <Button
                color="red"
                variant="light"
                onClick={() => setAsking('disable')}
                data-testid="two-factor-disable"
              >
                {t('security.two_factor.disable')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Stack>
            {data.required_by.length > 0 && (
              <Alert color="orange" data-testid="two-factor-required-by">
                {t('security.two_factor.required_by', { names: data.required_by.join(', ') })}
              </Alert>
            )}
            <TwoFactorEnrolment
              onDone={() => {
                refresh();
                notifySuccess(t('security.two_factor.enabled'));
              }}
            />
          </Stack>
        )}
        {data && (
          <Text size="sm" c="dimmed" data-testid="password-rules">
            {data.password.complexity
              ? t('security.password_rules_complex', { number: data.password.min_length })
              : t('security.password_rules', { number: data.password.min_length })}
          </Text>
        )}
      </Stack>
      <PasswordModal
        opened={asking !== null}
        title={asking === 'disable' ? t('security.two_factor.disable') : t('security.recovery.renew')}
        submitLabel={asking === 'disable' ? t('security.two_factor.disable') : t('security.recovery.renew')}
        onClose={() => setAsking(null)}
        onSubmit={async (password) => {
          if (asking === 'disable') {
            await disableTwoFactor(password);
            notifySuccess(t('security.two_factor.disabled'));
          } else {
            setCodes((await renewRecoveryCodes(password)).recovery_codes);
          }
          setAsking(null);
          refresh();
        }}
      />
    </Paper>
  );
}

interface PasswordModalProps {
  opened: boolean;
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: (password: string) => Promise<void>;
}

/** Asks for the password before a change that needs it; its message under the field on refusal. */
function PasswordModal({ opened, title, submitLabel, onClose, onSubmit }: PasswordModalProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setPassword('');
      setError(null);
    }
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError(t('validation.required'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(password);
    } catch (failure) {
      const fields = isApiError(failure) ? failure.fieldErrors : null;
      setError(fields?.password ? translateMessage(t, fields.password) : errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} data-testid="password-modal">
      <form onSubmit={submit} noValidate>
        <Stack>
          <PasswordInput
            label={t('security.password')}
            autoComplete="current-password"
            withAsterisk
            data-autofocus
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={error}
            visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
            data-testid="password-modal-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="password-modal-submit">
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function deviceLabel(session: Pick<UserSessionInfo, 'user_agent'>, t: TFunction): string {
  const { browser, system } = describeUserAgent(session.user_agent);
  if (browser && system) return t('security.sessions.device', { browser, system });
  return browser ?? system ?? t('security.sessions.unknown_device');
}

function SessionsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const [ending, setEnding] = useState(false);
  const others = sessions.data?.results.filter((session) => !session.current).length ?? 0;

  const endOthers = async () => {
    setEnding(true);
    try {
      const { ended } = await endOtherSessions();
      notifySuccess(t('security.sessions.ended', { number: ended }));
      await queryClient.invalidateQueries({ queryKey: securityKeys.sessions });
    } catch (error) {
      notifyError(error, t);
    } finally {
      setEnding(false);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sessions-title">
      <Stack>
        <Title order={2} size="h4" id="sessions-title">
          {t('security.sessions.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('security.sessions.intro')}
        </Text>
        {!sessions.data ? (
          <Loader size="sm" />
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table striped data-testid="session-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('security.sessions.device_column')}</Table.Th>
                  <Table.Th scope="col">{t('security.sessions.address')}</Table.Th>
                  <Table.Th scope="col">{t('security.sessions.last_used')}</Table.Th>
                  <Table.Th scope="col">{t('security.sessions.signed_in')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.data.results.map((session) => (
                  <Table.Tr key={session.id} data-testid="session-row" data-current={session.current}>
                    <Table.Td>
                      <Group gap="xs">
                        <Text size="sm">{deviceLabel(session, t)}</Text>
                        {session.current && (
                          <Badge size="sm" variant="light" leftSection={<IconShieldCheck size={12} />}>
                            {t('security.sessions.this_device')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{session.address ?? ''}</Table.Td>
                    <Table.Td>{formatDate(session.last_used_at)}</Table.Td>
                    <Table.Td>{formatDate(session.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group>
          <Button
            variant="light"
            color="red"
            disabled={others === 0}
            loading={ending}
            onClick={() => void endOthers()}
            data-testid="sessions-end-others"
          >
            {t('security.sessions.end_others')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

type PolicyValues = Omit<SecurityPolicy, 'session_hours'> & { session_hours: number | '' };

function PolicySection({ environment, name }: { environment: number; name: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const policy = useSecurityPolicy(environment, true);
  const [values, setValues] = useState<PolicyValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (policy.data) setValues({ ...policy.data, session_hours: policy.data.session_hours ?? '' });
  }, [policy.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    setSaving(true);
    setErrors({});
    try {
      const saved = await saveSecurityPolicy(environment, {
        ...values,
        session_hours: values.session_hours === '' ? null : values.session_hours,
      });
      queryClient.setQueryData(securityKeys.policy(environment), saved);
      void queryClient.invalidateQueries({ queryKey: securityKeys.overview });
      notifySuccess(t('admin.saved'));
    } catch (error) {
      const fields = isApiError(error) ? error.fieldErrors : null;
      if (fields)
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, m]) => [k, translateMessage(t, m)])));
      else notifyFailure(actionErrorMessage(error, t), t('common.error'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="policy-title">
      <form onSubmit={save} noValidate data-testid="security-policy-form">
        <Stack maw={560}>
          <Title order={2} size="h4" id="policy-title">
            {t('security.policy.title', { name })}
          </Title>
          <Text size="sm" c="dimmed">
            {t('security.policy.intro')}
          </Text>
          {!values ? (
            <Loader size="sm" />
          ) : (
            <>
              <Switch
                label={t('security.policy.require_two_factor')}
                description={t('security.policy.require_two_factor_hint')}
                checked={values.require_two_factor}
                onChange={(event) =>
                  setValues({ ...values, require_two_factor: event.currentTarget.checked })
                }
                error={errors.require_two_factor}
                data-testid="policy-require-two-factor"
              />
              <NumberInput
                label={t('security.policy.min_length')}
                min={PASSWORD_POLICY_MIN}
                max={PASSWORD_POLICY_MAX}
                allowDecimal={false}
                value={values.password_min_length}
                onChange={(value) =>
                  setValues({
                    ...values,
                    password_min_length: typeof value === 'number' ? value : PASSWORD_POLICY_MIN,
                  })
                }
                error={errors.password_min_length}
                data-testid="policy-min-length"
              />
              <Switch
                label={t('security.policy.complexity')}
                description={t('security.policy.complexity_hint')}
                checked={values.password_complexity}
                onChange={(event) =>
                  setValues({ ...values, password_complexity: event.currentTarget.checked })
                }
                data-testid="policy-complexity"
              />
              <NumberInput
                label={t('security.policy.session_hours')}
                description={t('security.policy.session_hours_hint')}
                min={1}
                max={SESSION_HOURS_MAX}
                allowDecimal={false}
                value={values.session_hours}
                onChange={(value) =>
                  setValues({ ...values, session_hours: typeof value === 'number' ? value : '' })
                }
                error={errors.session_hours}
                data-testid="policy-session-hours"
              />
              <Group>
                <Button type="submit" loading={saving} data-testid="policy-save">
                  {t('security.policy.save')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
