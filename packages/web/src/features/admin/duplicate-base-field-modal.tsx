import type { DefField } from '@dossierbase/core';
import { Alert, Button, Checkbox, Group, Modal, Progress, ScrollArea, Stack, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { putItem, useRefreshAdmin } from './admin-api';

/** Copies the base field to the data fields of other entities: one PUT per chosen data field. */
export function DuplicateModal({
  opened,
  onClose,
  field,
  currentEntity,
}: {
  opened: boolean;
  onClose: () => void;
  field: DefField;
  currentEntity?: number;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshAdmin();
  const [chosen, setChosen] = useState<number[]>([]);
  const [done, setDone] = useState(0);
  const [state, setState] = useState<'idle' | 'updating' | 'success' | 'error'>('idle');
  const usage = [...field.usage].sort(
    (a, b) => Number(b.def_dossier_id === currentEntity) - Number(a.def_dossier_id === currentEntity),
  );

  useEffect(() => {
    if (opened) {
      setChosen([]);
      setDone(0);
      setState('idle');
    }
  }, [opened]);

  const run = async () => {
    setState('updating');
    setDone(0);
    try {
      for (const id of chosen) {
        await putItem('defdossierdeffield', id, { defField: field.id });
        setDone((count) => count + 1);
      }
      await refresh();
      setState('success');
      setTimeout(onClose, 600);
    } catch {
      setState('error');
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('admin.base_field.duplicate')}
      data-testid="duplicate-modal"
    >
      <Stack>
        <ScrollArea.Autosize mah={150}>
          <Stack gap="xs">
            {usage.map((row) => (
              <Tooltip key={row.def_dossier_def_field_id} label={row.def_dossier_name}>
                <Checkbox
                  label={`${row.def_dossier_name} / ${row.def_dossier_def_field_name}`}
                  checked={chosen.includes(row.def_dossier_def_field_id)}
                  onChange={(event) =>
                    setChosen((list) =>
                      event.currentTarget.checked
                        ? [...list, row.def_dossier_def_field_id]
                        : list.filter((id) => id !== row.def_dossier_def_field_id),
                    )
                  }
                />
              </Tooltip>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {state === 'updating' && (
          <Progress
            value={chosen.length ? (done / chosen.length) * 100 : 100}
            data-testid="duplicate-progress"
          />
        )}
        {state === 'success' && (
          <Alert color="green" data-testid="duplicate-success">
            {t('admin.saved')}
          </Alert>
        )}
        {state === 'error' && <Alert color="red">{t('common.something_went_wrong')}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={run} disabled={chosen.length === 0} loading={state === 'updating'}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
