import { Button, Group, Menu, Modal, Paper, Progress, Stack, Text } from '@mantine/core';
import {
  IconArchive,
  IconArchiveOff,
  IconBell,
  IconBellOff,
  IconChevronDown,
  IconStar,
  IconStarOff,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyFailure, notifySuccess } from '../../../api/errors';
import { ModalMenuItem } from '../../../app/modal-menu-item';
import { type BulkAction, runBulk } from './list-api';

interface BulkBarProps {
  selected: readonly { id: number; archived: boolean }[];
  canDelete: boolean;
  canArchive: boolean;
  onDone: (action: BulkAction) => void;
}

/** Actions that ask for confirmation first (spec doc 2 section 4). */
const CONFIRMED: BulkAction[] = ['delete', 'archive', 'dearchive'];

/** The bar over the table while rows are selected: Delete and a More actions menu. */
export function BulkBar({ selected, canDelete, canArchive, onDone }: BulkBarProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<BulkAction | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState(0);
  const ids = selected.map((d) => d.id);
  const anyActive = selected.some((d) => !d.archived);
  const anyArchived = selected.some((d) => d.archived);

  const run = async (action: BulkAction) => {
    setFailed(0);
    setProgress(0);
    const failures = await runBulk(action, ids, (done) => setProgress(done));
    setProgress(null);
    if (failures.length > 0) {
      setFailed(failures.length);
      notifyFailure(t('dossier_list.bulk.failed', { count: failures.length }), t('common.error'));
    } else {
      setConfirming(null);
      notifySuccess(t(`dossier_list.bulk.done_${action}`, { count: ids.length }));
    }
    onDone(action);
  };
  const start = (action: BulkAction) => (CONFIRMED.includes(action) ? setConfirming(action) : run(action));
  const close = () => {
    if (progress !== null) return;
    setConfirming(null);
    setFailed(0);
  };

  // archive and dearchive open their confirmation
  const item = (action: BulkAction, icon: React.ReactNode) => (
    <ModalMenuItem leftSection={icon} onClick={() => start(action)} data-testid={`dossier-bulk-${action}`}>
      {t(`dossier_list.bulk.${action}`)}
    </ModalMenuItem>
  );

  return (
    <Paper withBorder p="xs" bg="var(--mantine-color-gray-0)" data-testid="dossier-bulk-bar">
      <Group justify="space-between">
        <Text size="sm" data-testid="dossier-bulk-count">
          {t('dossier_list.bulk.selected', { count: ids.length })}
        </Text>
        <Group gap="xs">
          {canDelete ? (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              onClick={() => start('delete')}
              data-testid="dossier-bulk-delete"
            >
              {t('dossier_list.bulk.delete')}
            </Button>
          ) : null}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                variant="default"
                rightSection={<IconChevronDown size={16} />}
                data-testid="dossier-bulk-more"
              >
                {t('dossier_list.bulk.more')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {canArchive && anyActive ? item('archive', <IconArchive size={16} />) : null}
              {canArchive && anyArchived ? item('dearchive', <IconArchiveOff size={16} />) : null}
              {item('subscribe', <IconBell size={16} />)}
              {item('unsubscribe', <IconBellOff size={16} />)}
              {item('favourite', <IconStar size={16} />)}
              {item('unfavourite', <IconStarOff size={16} />)}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      <Modal
        opened={confirming !== null}
        onClose={close}
        title={confirming ? t(`dossier_list.bulk.${confirming}`) : ''}
        data-testid="dossier-bulk-confirm"
      >
        <Stack>
          <Text>
            {confirming ? t(`dossier_list.bulk.confirm_${confirming}`, { count: ids.length }) : null}
          </Text>
          {progress !== null ? (
            <Progress
              value={(progress / Math.max(ids.length, 1)) * 100}
              data-testid="dossier-bulk-progress"
            />
          ) : null}
          {failed > 0 ? (
            <Text c="red" size="sm">
              {t('dossier_list.bulk.failed', { count: failed })}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={progress !== null}>
              {t('common.cancel')}
            </Button>
            <Button
              color={confirming === 'delete' ? 'red' : undefined}
              loading={progress !== null}
              onClick={() => confirming && run(confirming)}
              data-testid="dossier-bulk-confirm-ok"
            >
              {confirming ? t(`dossier_list.bulk.${confirming}`) : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
