import { type DeadlineReminder, deadlineReminderSchema, newDeadlineReminder } from '@dossierbase/core';
import { ColorInput, Group, NumberInput, Paper, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { settingOptionLabel } from '../labels';
import { enumValues } from './setting-controls';
import { changeAt, RemoveRowButton, SettingRows } from './setting-rows';

const reminder = deadlineReminderSchema.shape;
const UNITS = enumValues(reminder.type) ?? [];
const WHEN = enumValues(reminder.when) ?? [];

/** Stored reminders as far as they read; anything else starts from the defaults. */
function readReminders(value: unknown): DeadlineReminder[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => {
    const parsed = deadlineReminderSchema.safeParse(entry);
    return parsed.success ? parsed.data : newDeadlineReminder();
  });
}

/** A date field's deadline reminders: each a number of days, weeks, months or years before or after, with a colour. */
export function DeadlineRemindersInput({
  label,
  value,
  onChange,
  error,
  disabled,
  testId,
}: {
  label: string;
  value: unknown;
  onChange: (next: DeadlineReminder[]) => void;
  error?: string;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const reminders = readReminders(value);
  const set = (index: number, change: Partial<DeadlineReminder>) =>
    onChange(changeAt(reminders, index, change));
  return (
    <SettingRows
      label={label}
      testId={testId}
      error={error}
      disabled={disabled}
      addLabel={t('admin.settings.deadline.add')}
      onAdd={() => onChange([...reminders, newDeadlineReminder()])}
    >
      {reminders.map((entry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: reminders have no id of their own
        <Paper key={index} withBorder p="xs" data-testid={`${testId}-${index}`}>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <NumberInput
              w={90}
              label={t('admin.settings.deadline.number')}
              min={1}
              max={31}
              value={entry.number}
              onChange={(next) => set(index, { number: typeof next === 'number' ? next : 1 })}
              disabled={disabled}
              data-testid={`${testId}-${index}-number`}
            />
            <Select
              w={120}
              label={t('admin.settings.deadline.unit')}
              data={UNITS.map((unit) => ({
                value: unit,
                label: settingOptionLabel(t, 'deadline_unit', unit),
              }))}
              value={entry.type}
              allowDeselect={false}
              onChange={(next) => set(index, { type: (next ?? 'day') as DeadlineReminder['type'] })}
              disabled={disabled}
              data-testid={`${testId}-${index}-unit`}
            />
            <Select
              w={160}
              label={t('admin.settings.deadline.when')}
              data={WHEN.map((when) => ({
                value: when,
                label: settingOptionLabel(t, 'deadline_when', when),
              }))}
              value={entry.when}
              allowDeselect={false}
              onChange={(next) => set(index, { when: (next ?? 'before') as DeadlineReminder['when'] })}
              disabled={disabled}
              data-testid={`${testId}-${index}-when`}
            />
            <ColorInput
              w={110}
              label={t('admin.settings.deadline.colour')}
              value={entry.color}
              onChange={(color) => set(index, { color })}
              disabled={disabled}
            />
            <RemoveRowButton
              mb={6}
              onClick={() => onChange(reminders.filter((_, i) => i !== index))}
              disabled={disabled}
            />
          </Group>
        </Paper>
      ))}
    </SettingRows>
  );
}
