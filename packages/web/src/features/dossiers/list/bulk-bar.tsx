import { Button, Group, List, Menu, Modal, Paper, Progress, Stack, Text } from '@mantine/core';
import {
  IconArchive,
  IconArchiveOff,
  IconBell,
  IconBellOff,
  IconChevronDown,
  IconEdit,
  IconGitMerge,
  IconStar,
  IconStarOff,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionErrorMessage, notifyFailure, notifySuccess } from '../../../api/errors';
import { ModalMenuItem } from '../../../app/modal-menu-item';
import { useEnvironment } from '../../environments/environment-store';
import { type BulkAction, runBulk } from './list-api';

export interface BulkRow {
  id: number;
  archived: boolean;
  summary: string;
  subscribed: boolean;
}

interface BulkBarProps {
  selected: readonly BulkRow[];
  canDelete: boolean;
  canArchive: boolean;
  /** massupdate and edit on the entity: More actions offers Mass update */
  canMassUpdate?: boolean;
  onMassUpdate?: () => void;
  /** merge permission: More actions offers Merge with exactly two selected */
  canMerge?: boolean;
  onMerge?: () => void;
  /** Export of the selection (beside Delete) */
  exportButton?: ReactNode;
  onDone: (action: BulkAction) => void;
}

/** Actions that ask for confirmation first (spec doc 2 section 4). */
const CONFIRMED: BulkAction[] = ['delete', 'archive', 'dearchive'];

/**
 * The bar over the table while rows are selected: Delete and a More actions menu. Each action is
 * called per dossier, one after another; a failure does not stop the rest, and the dossiers that
 * failed are listed with the reason the server gave.
 */
export function BulkBar({
  selected,
  canDelete,
  canArchive,
  canMassUpdate = false,
  onMassUpdate,
  canMerge = false,
  onMerge,
  exportButton,
  onDone,
}: BulkBarProps) {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const [confirming, setConfirming] = useState<BulkAction | null>(null);
  const [running, setRunning] = useState<BulkAction | null>(null);
  const [progress, setProgress] = useState(0);
  const [failures, setFailures] = useState<{ name: string; reason: string }[]>([]);
  const ids = selected.map((d) => d.id);
  const anyActive = selected.some((d) => !d.archived);
  const anyArchived = selected.some((d) => d.archived);
  const anySubscribed = selected.some((d) => d.subscribed);

  const run = async (action: BulkAction) => {
    setFailures([]);
    setProgress(0);
    setRunning(action);
    const failed = await runBulk(action, ids, setProgress, environment?.id);
    setRunning(null);
    if (failed.length > 0) {
      const names = new Map(selected.map((d) => [d.id, d.summary || `#${d.id}`]));
      setFailures(
        failed.map((f) => ({ name: names.get(f.id) ?? `#${f.id}`, reason: actionErrorMessage(f.error, t) })),
      );
      // the report stays in the dialog; an action without one opens it for the report
      setConfirming(action);
      notifyFailure(t('dossier_list.bulk.failed', { count: failed.length }), t('common.error'));
      return;
    }
    setConfirming(null);
    notifySuccess(t(`dossier_list.bulk.done_${action}`, { count: ids.length }));
    onDone(action);
  };
  const start = (action: BulkAction) => (CONFIRMED.includes(action) ? setConfirming(action) : run(action));
  const close = () => {
    if (running !== null) return;
    const reported = failures.length > 0 ? confirming : null;
    setConfirming(null);
    setFailures([]);
    // after a report the selection and the list are renewed as after a success
    if (reported) onDone(reported);
  };

  const item = (action: BulkAction, icon: ReactNode) => (
    <ModalMenuItem leftSection={icon} onClick={() => start(action)} data-testid={`dossier-bulk-${action}`}>
      {t(`dossier_list.bulk.${action}`)}
    </ModalMenuItem>
  );
  const progressBar = (
    <Progress
      value={(progress / Math.max(ids.length, 1)) * 100}
      aria-label={t('dossier_list.bulk.progress', { done: progress, total: ids.length })}
      data-testid="dossier-bulk-progress"
    />
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
          {exportButton}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                variant="default"
                rightSection={<IconChevronDown size={16} />}
                loading={running !== null && confirming === null}
                data-testid="dossier-bulk-more"
              >
                {t('dossier_list.bulk.more')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {canArchive && anyActive ? item('archive', <IconArchive size={16} />) : null}
              {canArchive && anyArchived ? item('dearchive', <IconArchiveOff size={16} />) : null}
              {canMerge && onMerge && selected.length === 2 ? (
                <ModalMenuItem
                  leftSection={<IconGitMerge size={16} />}
                  onClick={onMerge}
                  data-testid="dossier-bulk-merge"
                >
                  {t('dossier_list.bulk.merge')}
                </ModalMenuItem>
              ) : null}
              {canMassUpdate && onMassUpdate ? (
                <ModalMenuItem
                  leftSection={<IconEdit size={16} />}
                  onClick={onMassUpdate}
                  data-testid="dossier-bulk-massupdate"
                >
                  {t('dossier_list.bulk.massupdate')}
                </ModalMenuItem>
              ) : null}
              {item('subscribe', <IconBell size={16} />)}
              {anySubscribed ? item('unsubscribe', <IconBellOff size={16} />) : null}
              {item('favourite', <IconStar size={16} />)}
              {item('unfavourite', <IconStarOff size={16} />)}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      {running !== null && confirming === null ? <Stack pt="xs">{progressBar}</Stack> : null}
      <Modal
        opened={confirming !== null}
        onClose={close}
        title={confirming ? t(`dossier_list.bulk.${confirming}`) : ''}
        data-testid="dossier-bulk-confirm"
      >
        <Stack data-testid="dossier-bulk-dialog">
          {failures.length === 0 ? (
            <Text>
              {confirming ? t(`dossier_list.bulk.confirm_${confirming}`, { count: ids.length }) : null}
            </Text>
          ) : null}
          {running !== null ? progressBar : null}
          {failures.length > 0 ? (
            <Stack gap={4} data-testid="dossier-bulk-failures">
              <Text c="red" size="sm">
                {t('dossier_list.bulk.failed', { count: failures.length })}
              </Text>
              <List size="sm">
                {failures.map((f) => (
                  <List.Item key={f.name} data-testid="dossier-bulk-failure">
                    {t('dossier_list.bulk.failure', { name: f.name, reason: f.reason })}
                  </List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
          <Group justify="flex-end">
            {failures.length > 0 ? (
              <Button variant="default" onClick={close} data-testid="dossier-bulk-close">
                {t('common.close')}
              </Button>
            ) : (
              <>
                <Button variant="default" onClick={close} disabled={running !== null}>
                  {t('common.cancel')}
                </Button>
                <Button
                  color={confirming === 'delete' ? 'red' : undefined}
                  loading={running !== null}
                  onClick={() => confirming && run(confirming)}
                  data-testid="dossier-bulk-confirm-ok"
                >
                  {confirming ? t(`dossier_list.bulk.${confirming}`) : ''}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
