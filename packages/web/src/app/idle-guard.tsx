import { Button, Center, Modal, Overlay, Paper, RingProgress, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/client';
import { useClientConfig } from '../api/config';
import { clearTokenData, logout, refreshToken, rememberReferer } from '../features/auth/session';
import { disconnectRealtime } from './realtime';

type IdlePhase = 'active' | 'prompt';

const ACTIVITY_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'click',
  'scroll',
  'wheel',
  'touchstart',
] as const;

export function dialColor(secondsLeft: number): string {
  if (secondsLeft <= 30) return 'red';
  if (secondsLeft <= 60) return 'orange';
  if (secondsLeft <= 120) return 'yellow';
  return 'blue';
}

// The lock lives in memory: it ends the session, so a reload finds no session and shows the login
// page. While it shows, the route guard renders it instead of the page (and of this guard).
let locked = false;
let sessionEnded: Promise<void> = Promise.resolve();
const lockListeners = new Set<() => void>();

function setLocked(next: boolean) {
  locked = next;
  for (const listener of lockListeners) listener();
}

function subscribeToLock(listener: () => void) {
  lockListeners.add(listener);
  return () => {
    lockListeners.delete(listener);
  };
}

export function useIdleLocked(): boolean {
  return useSyncExternalStore(subscribeToLock, () => locked);
}

/** Locks the screen and ends the session on the server; the page asked for opens after signing in. */
function lockSession() {
  if (locked) return;
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  setLocked(true);
  disconnectRealtime();
  sessionEnded = logout().then(() => rememberReferer(here));
}

export function IdleGuard() {
  const { t } = useTranslation();
  const { config } = useClientConfig();
  const limit = config.idle_limit_seconds;
  const lead = Math.min(config.idle_prompt_seconds, limit);
  const lastActivity = useRef(Date.now());
  const phaseRef = useRef<IdlePhase>('active');
  const [phase, setPhase] = useState<IdlePhase>('active');
  const [secondsLeft, setSecondsLeft] = useState(limit);

  const changePhase = useCallback((next: IdlePhase) => {
    phaseRef.current = next;
    setPhase(next);
  }, []);

  useEffect(() => {
    // Once the prompt shows, only the explicit button counts: a stray mouse move must not hide it.
    const onActivity = () => {
      if (phaseRef.current === 'active') lastActivity.current = Date.now();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, []);

  useEffect(() => {
    const tick = () => {
      const left = Math.ceil(limit - (Date.now() - lastActivity.current) / 1000);
      if (left <= 0) {
        lockSession();
      } else if (left <= lead) {
        if (phaseRef.current !== 'prompt') changePhase('prompt');
        setSecondsLeft(left);
      } else if (phaseRef.current !== 'active') {
        changePhase('active');
      }
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [limit, lead, changePhase]);

  // Reset at once so the prompt disappears on click; the renewal itself runs in the background.
  const staySignedIn = async () => {
    lastActivity.current = Date.now();
    changePhase('active');
    try {
      await refreshToken();
    } catch (error) {
      if (isApiError(error, 401)) clearTokenData();
    }
  };

  const color = dialColor(secondsLeft);

  return (
    <Modal
      opened={phase === 'prompt'}
      onClose={() => void staySignedIn()}
      title={t('idle.prompt_title')}
      centered
      zIndex={9000}
      closeOnClickOutside={false}
      transitionProps={{ exitDuration: 0 }}
    >
      {phase === 'prompt' && (
        <Stack align="center" data-testid="idle-prompt">
          <RingProgress
            size={140}
            thickness={12}
            roundCaps
            data-testid="idle-dial"
            data-color={color}
            data-seconds={secondsLeft}
            sections={[{ value: lead > 0 ? (secondsLeft / lead) * 100 : 0, color }]}
            label={
              <Text ta="center" fw={700} fz="xl">
                {formatCountdown(secondsLeft)}
              </Text>
            }
          />
          <Text ta="center">{t('idle.prompt_text', { seconds: secondsLeft })}</Text>
          <Button onClick={() => void staySignedIn()} data-testid="idle-stay">
            {t('idle.stay_signed_in')}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}

/** The locked screen: the session has ended; signing in again leads back to the page. */
export function IdleLockScreen() {
  const { t } = useTranslation();
  const signInAgain = async () => {
    await sessionEnded;
    // Without a session the route guard sends the user to the login page.
    setLocked(false);
  };
  return (
    <Overlay fixed zIndex={10000} backgroundOpacity={0.9} blur={6} color="#101828">
      <Center h="100%" data-testid="idle-locked">
        <Paper p="xl" shadow="lg" maw={420} w="90%">
          <Stack align="center" ta="center">
            <Title order={3}>{t('idle.locked_title')}</Title>
            <Text c="dimmed">{t('idle.locked_text')}</Text>
            <Button onClick={() => void signInAgain()} data-testid="idle-sign-in">
              {t('idle.sign_in_again')}
            </Button>
          </Stack>
        </Paper>
      </Center>
    </Overlay>
  );
}

function formatCountdown(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}
