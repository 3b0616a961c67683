import type { ListOption } from '@dossierbase/core';
import {
  Button,
  Checkbox,
  ColorInput,
  Group,
  Modal,
  NumberInput,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEnvironment } from '../environments/environment-store';
import { createItem, deleteItem, patchItem, useRefreshAdmin, useRoles } from './admin-api';
import { type Errors, environmentCultures, GeneralError, serverErrors } from './form-helpers';
import { SaveCancelButtons } from './save-cancel-buttons';

/** Adds or edits one option of a list or tree field: its text per language, colour, rank and hidden roles. */
export function ListOptionModal({
  opened,
  option,
  defField,
  nextRank,
  onClose,
}: {
  opened: boolean;
  option: ListOption | null;
  defField: number;
  nextRank: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const environmentRecord = useEnvironment();
  const environment = environmentRecord?.id ?? 0;
  const cultures = environmentCultures(environmentRecord?.locales);
  const refresh = useRefreshAdmin();
  const { data: roles = [] } = useRoles();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [color, setColor] = useState('');
  const [rank, setRank] = useState(0);
  const [hiddenFor, setHiddenFor] = useState<number[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setTexts(Object.fromEntries((option?.translations ?? []).map((tr) => [tr.culture, tr.text])));
    setColor(option?.color ?? '');
    setRank(option?.rank ?? nextRank);
    setHiddenFor(option?.settings?.roles ?? []);
  }, [opened, option, nextRank]);

  const save = async () => {
    const first = Object.values(texts).find((text) => text.trim()) ?? '';
    const translations = cultures.map((culture) => ({ culture, text: texts[culture]?.trim() || first }));
    const body = {
      environment,
      defField,
      color: color || null,
      rank,
      default: option?.default ?? false,
      translations,
      settings: { ...(option?.settings ?? {}), roles: hiddenFor },
    };
    if (!first) {
      setErrors({ translations: t('validation.required') });
      return;
    }
    setBusy(true);
    try {
      if (option) await patchItem('deffieldlist', option.id, { ...body, environment: undefined });
      else await createItem('deffieldlist', body);
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!option) return;
    await deleteItem('deffieldlist', option.id).catch((error) => setErrors(serverErrors(error, t)));
    await refresh();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('admin.list_option.title')}
      data-testid="list-option-modal"
    >
      <Stack>
        <GeneralError errors={errors} />
        <Tabs defaultValue="generic">
          <Tabs.List>
            <Tabs.Tab value="generic">{t('admin.tabs.generic')}</Tabs.Tab>
            <Tabs.Tab value="layout">{t('admin.tabs.layout')}</Tabs.Tab>
            <Tabs.Tab value="visibility">{t('admin.tabs.visibility')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="generic" pt="sm">
            <Stack>
              {cultures.map((culture, index) => (
                <TextInput
                  key={culture}
                  label={`${t('admin.list_option.text')} (${culture})`}
                  required={index === 0}
                  value={texts[culture] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setTexts((all) => ({ ...all, [culture]: value }));
                  }}
                  error={index === 0 ? errors.translations : undefined}
                  data-testid={`list-option-text-${culture}`}
                />
              ))}
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="layout" pt="sm">
            <Stack>
              <ColorInput
                label={t('admin.list_option.color')}
                value={color}
                onChange={setColor}
                error={errors.color}
                data-testid="list-option-color"
              />
              <NumberInput
                label={t('admin.rank')}
                min={0}
                value={rank}
                onChange={(next) => setRank(Math.max(0, Number(next) || 0))}
                error={errors.rank}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="visibility" pt="sm">
            <Text size="sm" c="dimmed" mb="xs">
              {t('admin.list_option.hidden_for')}
            </Text>
            <Stack gap={4}>
              {roles.map((role) => (
                <Checkbox
                  key={role.id}
                  label={role.name}
                  checked={hiddenFor.includes(role.id)}
                  onChange={(event) =>
                    setHiddenFor((list) =>
                      event.currentTarget.checked ? [...list, role.id] : list.filter((id) => id !== role.id),
                    )
                  }
                />
              ))}
            </Stack>
          </Tabs.Panel>
        </Tabs>
        <Group justify="space-between">
          <div>
            {option && (
              <Button color="red" variant="light" onClick={remove}>
                {t('admin.delete')}
              </Button>
            )}
          </div>
          <SaveCancelButtons onCancel={onClose} onSave={save} busy={busy} saveTestId="list-option-save" />
        </Group>
      </Stack>
    </Modal>
  );
}
