import { useDroppable } from '@dnd-kit/core';
import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The drop zone under a position's grid: an item dropped here starts a row of its own. */
export function NewRowZone({ id }: { id: string }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <Box
      ref={setNodeRef}
      p={6}
      style={{
        border: '1px dashed var(--mantine-color-gray-4)',
        borderRadius: 6,
        background: isOver ? 'var(--mantine-color-blue-0)' : undefined,
        textAlign: 'center',
      }}
      data-testid="designer-new-row"
    >
      <Text size="xs" c="dimmed">
        {t('admin.designer.new_row')}
      </Text>
    </Box>
  );
}
