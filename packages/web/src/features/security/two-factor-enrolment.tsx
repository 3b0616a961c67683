import type { TwoFactorSetup } from '@dossierbase/core';
import { Alert, Button, Code, Group, Image, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { errorMessage, notifyError } from '../../api/errors';
import { translateMessage } from '../../i18n/messages';
import { confirmTwoFactor, startTwoFactor } from './security-api';

/** Moves focus to the heading of a step as it appears, so keyboard and screen-reader users follow. */
function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** The recovery codes, shown once: listed, and offered as a text file. */
export function RecoveryCodesList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'dossierbase-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack data-testid="recovery-codes">
      <Title order={3} size="h5" ref={heading} tabIndex={-1}>
        {t('security.recovery.title')}
      </Title>
      <Alert color="yellow">{t('security.recovery.once')}</Alert>
      <List listStyleType="none" spacing={4} data-testid="recovery-code-list">
        {codes.map((code) => (
          <List.Item key={code}>
            <Code fz="md" data-testid="recovery-code">
              {code}
            </Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
          {t('security.recovery.download')}
        </Button>
        <Button onClick={onDone} data-testid="recovery-codes-done">
          {t('security.recovery.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Turning on two-factor sign-in: a secret from the server shown as a QR code and as text, confirmed
 * with a first code from the app; then the ten recovery codes, once. `onDone` after the codes.
 */
export function TwoFactorEnrolment({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!setup) return;
    let current = true;
    void QRCode.toDataURL(setup.otpauth_url, { margin: 1, width: 200 }).then((url) => current && setQr(url));
    return () => {
      current = false;
    };
  }, [setup]);

  const start = async () => {
    setStarting(true);
    try {
      setSetup(await startTwoFactor());
    } catch (error) {
      notifyError(error, t);
    } finally {
      setStarting(false);
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setCodeError(t('security.enrol.code_digits'));
      return;
    }
    setConfirming(true);
    setCodeError(null);
    try {
      const answer = await confirmTwoFactor(code);
      // The screen reads the new state once the codes are put away (onDone): read now, it would
      // replace this step before the codes are seen.
      setCodes(answer.recovery_codes);
    } catch (error) {
      const fields = isApiError(error) ? error.fieldErrors : null;
      setCodeError(fields?.code ? translateMessage(t, fields.code) : errorMessage(error, t));
    } finally {
      setConfirming(false);
    }
  };

  if (codes) return <RecoveryCodesList codes={codes} onDone={onDone} />;

  if (!setup) {
    return (
      <Stack align="flex-start" data-testid="two-factor-start">
        <Text>{t('security.enrol.intro')}</Text>
        <Button onClick={() => void start()} loading={starting} data-testid="two-factor-enable">
          {t('security.enrol.start')}
        </Button>
      </Stack>
    );
  }

  return (
    <ScanStep
      qr={qr}
      secret={setup.secret}
      code={code}
      codeError={codeError}
      confirming={confirming}
      onCode={(value) => setCode(value.replace(/\D/g, '').slice(0, 6))}
      onSubmit={confirm}
    />
  );
}

interface ScanStepProps {
  qr: string | null;
  secret: string;
  code: string;
  codeError: string | null;
  confirming: boolean;
  onCode: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
}

function ScanStep({ qr, secret, code, codeError, confirming, onCode, onSubmit }: ScanStepProps) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <form onSubmit={onSubmit} noValidate data-testid="two-factor-scan">
      <Stack>
        <Title order={3} size="h5" ref={heading} tabIndex={-1}>
          {t('security.enrol.scan_title')}
        </Title>
        <Text>{t('security.enrol.scan')}</Text>
        <Group align="flex-start" gap="xl">
          {qr && (
            <Image src={qr} w={200} h={200} alt={t('security.enrol.qr_alt')} data-testid="two-factor-qr" />
          )}
          <Stack gap={4} maw={360}>
            <Text size="sm">{t('security.enrol.manual')}</Text>
            <Code fz="md" style={{ wordBreak: 'break-all' }} data-testid="two-factor-secret">
              {secret}
            </Code>
          </Stack>
        </Group>
        <TextInput
          label={t('security.enrol.code')}
          description={t('security.enrol.code_hint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          maw={240}
          withAsterisk
          value={code}
          onChange={(event) => onCode(event.currentTarget.value)}
          error={codeError}
          data-testid="two-factor-code"
        />
        <Group>
          <Button type="submit" loading={confirming} data-testid="two-factor-confirm">
            {t('security.enrol.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
