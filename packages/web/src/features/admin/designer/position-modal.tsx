import type { DisplayPosition } from '@dossierbase/core';
import { Button, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/errors';
import { useEnvironment } from '../../environments/environment-store';
import { createItem, deleteItem, patchItem, useRefreshAdmin } from '../admin-api';
import { type Errors, environmentCultures, GeneralError, serverErrors } from '../form-helpers';
import { SaveCancelButtons } from '../save-cancel-buttons';

/** Adds a display position (tab, main content, meta, footer) or edits, hides or deletes one. */
export function PositionModal({
  opened,
  onClose,
  defDossier,
  count,
  position,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  count: number;
  position?: DisplayPosition;
}) {
  const { t } = useTranslation();
  const environmentRecord = useEnvironment();
  const cultures = environmentCultures(environmentRecord?.locales);
  const refresh = useRefreshAdmin();
  const [type, setType] = useState<string>('tab');
  const [name, setName] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [hide, setHide] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures are fixed while the modal is open
  useEffect(() => {
    if (opened) {
      setType(position?.type ?? (count === 0 ? 'main_content' : 'tab'));
      setName('');
      setNames(
        Object.fromEntries(
          cultures.map((culture) => [
            culture,
            position?.translations.find((tr) => tr.culture === culture)?.name ?? '',
          ]),
        ),
      );
      setHide(position?.hide ?? false);
      setErrors({});
    }
  }, [opened, count, position]);

  const save = async () => {
    if (position) {
      const first = cultures.map((culture) => names[culture]?.trim()).find(Boolean);
      if (!first) return setErrors({ [`name_${cultures[0]}`]: t('validation.required') });
      setBusy(true);
      try {
        await patchItem('displayposition', position.id, {
          type,
          hide,
          translations: cultures.map((culture) => {
            const before = position.translations.find((tr) => tr.culture === culture);
            return {
              culture,
              name: names[culture]?.trim() || first,
              ...(before?.name_plural ? { name_plural: before.name_plural } : {}),
            };
          }),
        });
        await refresh();
        onClose();
      } catch (error) {
        setErrors(serverErrors(error, t));
      } finally {
        setBusy(false);
      }
      return;
    }
    if (!name.trim()) return setErrors({ name: t('validation.required') });
    setBusy(true);
    try {
      await createItem('displayposition', {
        environment: environmentRecord?.id,
        defDossier,
        uuid: crypto.randomUUID(),
        type,
        rank: count,
        translations: cultures.map((culture) => ({ culture, name: name.trim() })),
      });
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!position || !window.confirm(t('admin.position.delete_confirm'))) return;
    setBusy(true);
    try {
      await deleteItem('displayposition', position.id);
      await refresh();
      notifySuccess(t('admin.saved'));
      onClose();
    } catch (error) {
      // The server refuses while display items are in the position; its message says so.
      const found = serverErrors(error, t);
      const message = found.displayPosition ?? Object.values(found)[0];
      setErrors(message ? { _: message } : found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={position ? t('admin.position.edit') : t('admin.position.add')}
      data-testid="position-modal"
    >
      <Stack>
        <GeneralError errors={errors} />
        <Select
          label={t('admin.type')}
          data={['main_content', 'tab', 'meta', 'footer'].map((value) => ({
            value,
            label: t(`admin.position.types.${value}`),
          }))}
          value={type}
          onChange={(next) => setType(next ?? 'tab')}
          error={errors.type}
          data-testid="position-type"
        />
        {position ? (
          <>
            {cultures.map((culture, index) => (
              <TextInput
                key={culture}
                label={`${t('admin.name')} (${culture})`}
                required={index === 0}
                value={names[culture] ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setNames((all) => ({ ...all, [culture]: value }));
                }}
                error={index === 0 ? (errors[`name_${culture}`] ?? errors.translations) : undefined}
                data-testid={`position-name-${culture}`}
              />
            ))}
            <Switch
              label={t('admin.position.hide')}
              checked={hide}
              onChange={(event) => setHide(event.currentTarget.checked)}
              data-testid="position-hide"
            />
          </>
        ) : (
          <TextInput
            label={t('admin.name')}
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name ?? errors.translations}
            data-testid="position-name"
          />
        )}
        <Group justify="space-between">
          {position ? (
            <Button color="red" variant="light" onClick={remove} loading={busy} data-testid="position-delete">
              {t('admin.position.delete')}
            </Button>
          ) : (
            <span />
          )}
          <SaveCancelButtons onCancel={onClose} onSave={save} busy={busy} saveTestId="position-save" />
        </Group>
      </Stack>
    </Modal>
  );
}
