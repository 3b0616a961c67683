import { ActionIcon, Button, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A setting that holds a list of rows (deadline reminders, sort fields): its label, rows, error and Add button. */
export function SettingRows({
  label,
  testId,
  error,
  disabled,
  addLabel,
  onAdd,
  children,
}: {
  label: string;
  testId: string;
  error?: string;
  disabled?: boolean;
  addLabel: string;
  /** Absent when no row can be added. */
  onAdd?: () => void;
  children: ReactNode;
}) {
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {children}
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      <Button
        size="compact-xs"
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={12} />}
        onClick={onAdd}
        disabled={disabled || !onAdd}
        data-testid={`${testId}-add`}
      >
        {addLabel}
      </Button>
    </Stack>
  );
}

/** The button that removes one row; `mb` lines it up with labelled inputs. */
export function RemoveRowButton({
  onClick,
  disabled,
  mb,
}: {
  onClick: () => void;
  disabled?: boolean;
  mb?: number;
}) {
  const { t } = useTranslation();
  return (
    <ActionIcon
      variant="subtle"
      color="red"
      mb={mb}
      onClick={onClick}
      disabled={disabled}
      aria-label={t('admin.delete')}
    >
      <IconTrash size={14} />
    </ActionIcon>
  );
}

/** The list with the entry at `index` changed. */
export const changeAt = <T,>(list: readonly T[], index: number, change: Partial<T>): T[] =>
  list.map((entry, i) => (i === index ? { ...entry, ...change } : entry));
