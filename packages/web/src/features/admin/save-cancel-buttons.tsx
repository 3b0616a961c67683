import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The Cancel and Save pair every admin editor ends with. */
export function SaveCancelButtons({
  onCancel,
  onSave,
  busy,
  saveDisabled,
  saveTestId,
  cancelLabel,
}: {
  onCancel: () => void;
  onSave: () => void;
  busy?: boolean;
  saveDisabled?: boolean;
  saveTestId: string;
  cancelLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group>
      <Button variant="default" onClick={onCancel}>
        {cancelLabel ?? t('common.cancel')}
      </Button>
      <Button onClick={onSave} loading={busy} disabled={saveDisabled} data-testid={saveTestId}>
        {t('admin.save')}
      </Button>
    </Group>
  );
}
