import { useSortable } from '@dnd-kit/sortable';
import type { DisplayItem } from '@dossierbase/core';
import { ActionIcon, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconGripVertical, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/locale-provider';
import { ModalMenuItem } from '../../../app/modal-menu-item';
import { dossierDataLabel, fieldTypeLabel, viewLabel } from '../labels';
import type { Editor } from './editor';
import { itemLabel } from './item-label';

/** One display item on the grid: a drag handle, its name and type, and a cog menu of its editors. */
export function GridItem({
  item,
  col,
  span,
  onEdit,
}: {
  item: DisplayItem;
  col: number;
  span: number;
  onEdit: (editor: Editor) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
  });
  const field = item.def_dossier_def_field;
  const link = item.def_dossier_link;
  const shows = field
    ? fieldTypeLabel(t, field.def_field.type)
    : link
      ? fieldTypeLabel(t, 'link')
      : item.settings?.dossier_data
        ? dossierDataLabel(t, String(item.settings.dossier_data))
        : t('admin.display.block');
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      radius="sm"
      shadow={isDragging ? 'md' : undefined}
      style={{
        gridColumn: `${col} / span ${span}`,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        transition,
        opacity: isDragging ? 0.6 : 1,
        background: 'var(--mantine-color-body)',
      }}
      data-testid={`designer-item-${item.id}`}
    >
      <Group gap={6} wrap="nowrap" justify="space-between">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            {...attributes}
            {...listeners}
            aria-label={t('admin.designer.drag')}
            data-testid={`designer-drag-${item.id}`}
            style={{ cursor: 'grab' }}
          >
            <IconGripVertical size={14} />
          </ActionIcon>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {itemLabel(item, locale)}
              {(field?.obligatory || link?.obligatory) && (
                <span style={{ color: 'var(--mantine-color-error)' }}> *</span>
              )}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {shows} · {viewLabel(t, item.view)} · {item.colspan}/12
            </Text>
          </Stack>
        </Group>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              size="sm"
              data-testid={`designer-cog-${item.id}`}
              aria-label={t('admin.cog.open')}
            >
              <IconSettings size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <ModalMenuItem onClick={() => onEdit({ kind: 'display', item })} data-testid="cog-display">
              {t('admin.cog.display')}
            </ModalMenuItem>
            {field && (
              <ModalMenuItem onClick={() => onEdit({ kind: 'data', id: field.id })} data-testid="cog-data">
                {t('admin.cog.data')}
              </ModalMenuItem>
            )}
            {field && (
              <ModalMenuItem
                onClick={() => onEdit({ kind: 'base', id: field.def_field.id })}
                data-testid="cog-base"
              >
                {t('admin.cog.base')}
              </ModalMenuItem>
            )}
            {link && (
              <ModalMenuItem onClick={() => onEdit({ kind: 'link', id: link.id })} data-testid="cog-link">
                {t('admin.cog.link')}
              </ModalMenuItem>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}
