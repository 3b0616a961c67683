import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext } from '@dnd-kit/sortable';
import type { DisplayItem, DisplayPosition } from '@dossierbase/core';
import { Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { patchItem } from '../admin-api';
import { useAdminAction } from '../admin-form';
import { layoutRows, minimumSpan, movePlacements } from '../grid';
import type { Editor } from './editor';
import { GridItem } from './grid-item';
import { NewRowZone } from './new-row-zone';

/** One position's display items on the 12-column grid; dragging an item saves its new rank and column. */
export function PositionGrid({
  position,
  items,
  onEdit,
}: {
  position: DisplayPosition;
  items: DisplayItem[];
  onEdit: (editor: Editor) => void;
}) {
  const { t } = useTranslation();
  const { width } = useViewportSize();
  const savePlacements = useAdminAction(async (placements: { id: number; rank: number; col: number }[]) => {
    for (const placement of placements) {
      await patchItem('displayitem', placement.id, { rank: placement.rank, col: placement.col });
    }
  });
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const minSpan = minimumSpan(width || 1200);
  const rows = layoutRows(items, minSpan);
  const ids = rows.flat().map((cell) => cell.item.id);
  const lastRank = items.reduce((max, item) => Math.max(max, item.rank), 0);

  const onDragEnd = (event: DragEndEvent) => {
    const activeId = Number(event.active.id);
    const overId = event.over?.id;
    if (overId === undefined || overId === activeId) return;
    const placements = movePlacements(
      items,
      activeId,
      overId === `new-row-${position.id}` ? { newRow: true } : { itemId: Number(overId) },
    );
    if (placements.length > 0) savePlacements.mutate(placements);
  };

  return (
    <Stack gap="xs" data-testid={`designer-grid-${position.id}`}>
      {items.length === 0 && (
        <Text c="dimmed" size="sm" data-testid="designer-empty">
          {t('admin.designer.empty_position')}
        </Text>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={rectSortingStrategy}>
          {rows.map((row) => (
            <Box
              key={row[0].item.rank}
              style={{ display: 'grid', gridTemplateColumns: 'repeat(12, minmax(0, 1fr))', gap: 8 }}
              data-testid="designer-row"
            >
              {row.map((cell) => (
                <GridItem
                  key={cell.item.id}
                  item={cell.item}
                  col={cell.col}
                  span={cell.span}
                  onEdit={onEdit}
                />
              ))}
            </Box>
          ))}
        </SortableContext>
        <NewRowZone id={`new-row-${position.id}`} />
      </DndContext>
      <Group>
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          onClick={() => onEdit({ kind: 'display', position: position.id, rank: lastRank + 1 })}
          data-testid={`designer-add-item-${position.id}`}
        >
          {t('admin.designer.add_display_field')}
        </Button>
        {savePlacements.isPending && <Loader size="xs" />}
      </Group>
    </Stack>
  );
}
