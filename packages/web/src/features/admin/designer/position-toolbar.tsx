import type { DisplayPosition } from '@dossierbase/core';
import { ActionIcon, Badge, Button, Group } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconEdit } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { patchItem } from '../admin-api';
import { useAdminAction } from '../admin-form';
import { movePosition } from '../grid';

/** Above a position's grid: move the position left or right among its type, and open its editor. */
export function PositionToolbar({
  position,
  positions,
  onEdit,
}: {
  position: DisplayPosition;
  positions: readonly DisplayPosition[];
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const saveRanks = useAdminAction(async (changes: { id: number; rank: number }[]) => {
    for (const change of changes) await patchItem('displayposition', change.id, { rank: change.rank });
  });
  const busy = saveRanks.isPending;
  const move = (step: -1 | 1) => {
    const changes = movePosition(positions, position, step);
    if (changes.length > 0) saveRanks.mutate(changes);
  };
  const group = positions.filter((p) => p.type === position.type);
  const index = group.findIndex((p) => p.id === position.id);
  return (
    <Group
      gap={4}
      justify="flex-end"
      mb="xs"
      data-testid="designer-position-toolbar"
      data-position-id={position.id}
    >
      {position.hide && (
        <Badge color="gray" variant="light" data-testid="designer-position-hidden">
          {t('admin.position.hide')}
        </Badge>
      )}
      <ActionIcon
        variant="subtle"
        size="sm"
        disabled={busy || index <= 0}
        onClick={() => move(-1)}
        aria-label={t('admin.position.move_up')}
        title={t('admin.position.move_up')}
        data-testid="designer-position-up"
      >
        <IconArrowLeft size={14} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        size="sm"
        disabled={busy || index < 0 || index >= group.length - 1}
        onClick={() => move(1)}
        aria-label={t('admin.position.move_down')}
        title={t('admin.position.move_down')}
        data-testid="designer-position-down"
      >
        <IconArrowRight size={14} />
      </ActionIcon>
      <Button
        size="compact-xs"
        variant="subtle"
        leftSection={<IconEdit size={12} />}
        onClick={onEdit}
        data-testid="designer-position-edit"
      >
        {t('admin.position.edit')}
      </Button>
    </Group>
  );
}
