import type { ListOption } from '@dossierbase/core';
import { ActionIcon, Button, Group, Stack, Table } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { pickTranslation, useListOptions } from './admin-api';
import { useAdminAction } from './admin-form';
import { ListOptionModal } from './list-option-modal';

/** The options of a list or tree field, each edited in the list option editor. */
export function ListOptionsEditor({ defField }: { defField: number }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: options = [] } = useListOptions(defField);
  const [editing, setEditing] = useState<ListOption | 'new' | null>(null);
  const sorted = [...options].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const saveRanks = useAdminAction((order: ListOption[]) =>
    api.patch('/deffieldlist', { ranks: order.map((option, rank) => ({ id: option.id, rank })) }),
  );
  /** Swaps two neighbours and saves all ranks at once (PATCH /deffieldlist {ranks}). */
  const move = (index: number, step: -1 | 1) => {
    const order = [...sorted];
    [order[index], order[index + step]] = [order[index + step], order[index]];
    saveRanks.mutate(order);
  };
  return (
    <Stack gap="xs" data-testid="list-options">
      <Table>
        <Table.Tbody>
          {sorted.map((option, index) => (
            <Table.Tr key={option.id} data-testid={`list-option-${option.id}`}>
              <Table.Td w={24}>
                <div
                  style={{
                    width: 16,
                    height: 16,
                    borderRadius: 4,
                    background: option.color ?? 'transparent',
                  }}
                />
              </Table.Td>
              <Table.Td>{pickTranslation(option.translations, locale)?.text}</Table.Td>
              <Table.Td>{option.rank}</Table.Td>
              <Table.Td>
                <Group gap={2} wrap="nowrap">
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={saveRanks.isPending || index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t('admin.move_up')}
                  >
                    <IconArrowUp size={14} />
                  </ActionIcon>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={saveRanks.isPending || index === sorted.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t('admin.move_down')}
                  >
                    <IconArrowDown size={14} />
                  </ActionIcon>
                </Group>
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" onClick={() => setEditing(option)}>
                  {t('admin.edit')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} />}
        onClick={() => setEditing('new')}
        data-testid="list-option-add"
      >
        {t('admin.list_option.add')}
      </Button>
      <ListOptionModal
        opened={editing !== null}
        option={editing === 'new' ? null : editing}
        defField={defField}
        nextRank={sorted.length ? sorted[sorted.length - 1].rank + 1 : 0}
        onClose={() => setEditing(null)}
      />
    </Stack>
  );
}
