import {
  ARCHIVE_CASCADE_RULES,
  CASCADE_RULES,
  type DefDossierLink,
  defDossierLinkCreateSchema,
  ENTITY_MESSAGES,
  LINK_TYPES,
  sanitiseLinkName,
} from '@dossierbase/core';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import {
  adminKeys,
  createItem,
  deleteItem,
  entityName,
  newUuid,
  patchItem,
  useEntities,
  useEnvironmentId,
  useRefreshAdmin,
} from './admin-api';
import { type Errors, GeneralError, serverErrors, validate } from './form-helpers';
import { SaveCancelButtons } from './save-cancel-buttons';
import { SettingsFields, settingsWithDefaults } from './settings-fields';

export function LinkFieldModal({
  opened,
  onClose,
  defDossier,
  linkId = 0,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  linkId?: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironmentId();
  const refresh = useRefreshAdmin();
  const { data: entities = [] } = useEntities();
  const { data: link } = useQuery({
    queryKey: adminKeys.one('defdossierlink', linkId),
    queryFn: () => api.get<DefDossierLink>(`/defdossierlink/${linkId}`),
    enabled: opened && linkId > 0,
  });
  const [tab, setTab] = useState<string | null>('main');
  const [name, setName] = useState('');
  const [child, setChild] = useState<string | null>(null);
  const [typeOfLink, setTypeOfLink] = useState<string | null>('select');
  const [cascadeRule, setCascadeRule] = useState<string>('maintain');
  const [archiveCascadeRule, setArchiveCascadeRule] = useState<string>('');
  const [obligatory, setObligatory] = useState(false);
  const [locked, setLocked] = useState(false);
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened or once the record has loaded, not on refetches
  useEffect(() => {
    if (!opened) return;
    setTab('main');
    setErrors({});
    setName(link?.name ?? '');
    setChild(link ? String(link.child_def_dossier_id) : null);
    setTypeOfLink(link?.type_of_link ?? 'select');
    setCascadeRule(link?.cascade_rule ?? 'maintain');
    setArchiveCascadeRule(link?.archive_cascade_rule ?? '');
    setObligatory(link?.obligatory ?? false);
    setLocked(link?.locked ?? false);
    setSettings(settingsWithDefaults('link', link?.settings));
  }, [opened, link?.id]);

  const save = async () => {
    const body = {
      environment,
      uuid: link?.uuid ?? newUuid(),
      defDossier,
      childDefDossier: child ? Number(child) : undefined,
      name: sanitiseLinkName(name),
      typeOfLink: typeOfLink ?? undefined,
      cascadeRule,
      archiveCascadeRule,
      obligatory,
      locked,
      settings,
    };
    const invalid = validate(defDossierLinkCreateSchema, body, t);
    if (invalid) {
      setErrors(invalid);
      setTab(invalid.cascadeRule || invalid.archiveCascadeRule ? 'cascade' : 'main');
      return;
    }
    setBusy(true);
    try {
      if (link) {
        await patchItem('defdossierlink', link.id, {
          name: body.name,
          typeOfLink,
          cascadeRule,
          archiveCascadeRule,
          obligatory,
          locked,
          settings,
        });
      } else await createItem('defdossierlink', body);
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!link || !window.confirm(t('admin.link.confirm_delete'))) return;
    try {
      await deleteItem('defdossierlink', link.id);
      await refresh();
      onClose();
    } catch (error) {
      setErrors(serverErrors(error, t));
    }
  };

  const entityOptions = entities.map((entity) => ({
    value: String(entity.id),
    label: entityName(entity, locale),
  }));
  const backEntity = entities.find((entity) => entity.id === link?.child_def_dossier_id);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={link ? t('admin.link.edit_title') : t('admin.link.add_title')}
      data-testid="link-modal"
    >
      <Stack>
        {link?.locked && <Alert color="yellow">{ENTITY_MESSAGES.locked}</Alert>}
        <GeneralError errors={errors} />
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab
              value="main"
              rightSection={
                errors.name || errors.childDefDossier || errors.typeOfLink ? (
                  <IconAlertCircle size={14} color="red" />
                ) : null
              }
            >
              {t('admin.tabs.main')}
            </Tabs.Tab>
            <Tabs.Tab value="cascade">{t('admin.tabs.cascade')}</Tabs.Tab>
            {link && <Tabs.Tab value="info">{t('admin.tabs.info')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="main" pt="sm">
            <Stack>
              <TextInput
                label={t('admin.name')}
                required
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={errors.name}
                data-testid="link-name"
              />
              <Select
                label={t('admin.entity')}
                required
                searchable
                data={entityOptions}
                value={child}
                onChange={setChild}
                disabled={!!link}
                description={link ? ENTITY_MESSAGES.linkEntityFixed : undefined}
                error={errors.childDefDossier}
                data-testid="link-entity"
              />
              <Select
                label={t('admin.link.type')}
                required
                data={LINK_TYPES.map((value) => ({ value, label: t(`admin.link.types.${value}`) }))}
                value={typeOfLink}
                onChange={setTypeOfLink}
                error={errors.typeOfLink}
                data-testid="link-type"
              />
              <Checkbox
                label={t('admin.obligatory')}
                checked={obligatory}
                onChange={(event) => setObligatory(event.currentTarget.checked)}
              />
              <Checkbox
                label={t('admin.locked')}
                checked={locked}
                onChange={(event) => setLocked(event.currentTarget.checked)}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="cascade" pt="sm">
            <Stack>
              <Select
                label={t('admin.link.cascade_rule')}
                data={[...CASCADE_RULES]}
                value={cascadeRule}
                onChange={(next) => setCascadeRule(next ?? 'maintain')}
                error={errors.cascadeRule}
              />
              <Select
                label={t('admin.link.archive_cascade_rule')}
                data={ARCHIVE_CASCADE_RULES.map((value) => ({ value, label: value || '-' }))}
                value={archiveCascadeRule}
                onChange={(next) => setArchiveCascadeRule(next ?? '')}
                error={errors.archiveCascadeRule}
              />
              <SettingsFields type="link" value={settings} onChange={setSettings} errors={errors} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="info" pt="sm">
            <Text size="sm">
              {t('admin.id')}: {link?.id} · {t('admin.entity')}: {entityName(backEntity, locale)} ·{' '}
              {t('admin.link.back_link')}: {link?.back_link_id ?? '-'}
            </Text>
          </Tabs.Panel>
        </Tabs>
        <Group justify="space-between">
          <div>
            {link && (
              <Button color="red" variant="light" onClick={remove} data-testid="link-delete">
                {t('admin.delete')}
              </Button>
            )}
          </div>
          <SaveCancelButtons
            onCancel={onClose}
            onSave={save}
            busy={busy}
            saveDisabled={!!link?.locked}
            saveTestId="link-save"
          />
        </Group>
      </Stack>
    </Modal>
  );
}
