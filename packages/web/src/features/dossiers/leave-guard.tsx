import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type Location, useBlocker } from 'react-router';

// Leaving a dossier form with unsaved changes asks first (spec doc 2: 'Discard changes to {name}',
// Leave page / Continue working): the create page and the dossier page's edit mode.

/** Does a navigation leave the form: another path, or (with `search`) another query, such as a tab. */
type Leaves = (current: Location, next: Location) => boolean;
export const leavesPath: Leaves = (current, next) => current.pathname !== next.pathname;
export const leavesPathOrQuery: Leaves = (current, next) =>
  current.pathname !== next.pathname || current.search !== next.search;

/** Blocks navigations that leave the form while it holds changes; `allowLeaving` lets the next one go. */
export function useLeaveGuard(dirty: boolean, leaves: Leaves = leavesPath) {
  const allowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !allowed.current && leaves(currentLocation, nextLocation),
  );
  return {
    blocked: blocker.state === 'blocked',
    stay: () => blocker.reset?.(),
    leave: () => blocker.proceed?.(),
    allowLeaving: () => {
      allowed.current = true;
    },
  };
}

interface LeaveModalProps {
  opened: boolean;
  /** the dossier or type name in the title */
  name: string;
  onStay: () => void;
  onLeave: () => void;
}

export function LeaveModal({ opened, name, onStay, onLeave }: LeaveModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onStay}
      title={t('dossier.leave_title', { name })}
      data-testid="dossier-leave-modal"
    >
      <Stack>
        <Text size="sm">{t('dossier.leave_text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onStay} data-testid="dossier-continue-working">
            {t('dossier.continue_working')}
          </Button>
          <Button color="red" onClick={onLeave} data-testid="dossier-leave-page">
            {t('dossier.leave_page')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
