import {
  ARCHIVE_CASCADE_RULES,
  CASCADE_RULES,
  type DefDossierLink,
  defDossierLinkCreateSchema,
  ENTITY_MESSAGES,
  idSchema,
  LINK_TYPES,
  parseFieldSettings,
  REQUIRED_MESSAGE,
  sanitiseLinkName,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { translateMessage } from '../../i18n/messages';
import {
  adminKeys,
  createItem,
  deleteItem,
  entityName,
  newUuid,
  patchItem,
  useEntities,
  useEnvironmentId,
} from './admin-api';
import { formError, nestedMessages, useAdminMutation } from './admin-form';
import { AdminModal, ErrorMark } from './admin-modal';
import { FormCheckbox, FormRadioGroup, FormSelect, FormTextInput } from './form-controls';
import { checkSettings } from './settings/check-settings';
import { SettingsFields } from './settings/settings-fields';

const schema = defDossierLinkCreateSchema
  .pick({
    name: true,
    typeOfLink: true,
    cascadeRule: true,
    archiveCascadeRule: true,
    obligatory: true,
    locked: true,
    settings: true,
  })
  .extend({ childDefDossier: idSchema.nullable() })
  .superRefine((values, ctx) => {
    if (values.childDefDossier === null) {
      ctx.addIssue({ code: 'custom', message: REQUIRED_MESSAGE, path: ['childDefDossier'] });
    }
    checkSettings('link', values.settings, 'override', ctx);
  });
type Values = z.input<typeof schema>;

/** Adds a link from this entity to another, or edits or deletes one. */
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
  const { data: entities = [] } = useEntities();
  const { data: link } = useQuery({
    queryKey: adminKeys.one('defdossierlink', linkId),
    queryFn: () => api.get<DefDossierLink>(`/defdossierlink/${linkId}`),
    enabled: opened && linkId > 0,
  });
  const [tab, setTab] = useState<string | null>('main');
  const form = useForm<Values>({ resolver: zodResolver(schema) });
  const { errors } = form.formState;
  const child = form.watch('childDefDossier');

  // The first tab on opening only: a tab the admin chose while the record was loading stays chosen.
  useEffect(() => {
    if (opened) setTab('main');
  }, [opened]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened or once the record has loaded, not on refetches
  useEffect(() => {
    if (!opened) return;
    form.reset({
      name: link?.name ?? '',
      childDefDossier: link?.child_def_dossier_id ?? null,
      typeOfLink: link?.type_of_link ?? 'select',
      cascadeRule: link?.cascade_rule ?? 'maintain',
      archiveCascadeRule: link?.archive_cascade_rule ?? '',
      obligatory: link?.obligatory ?? false,
      locked: link?.locked ?? false,
      settings: link?.settings ?? {},
    });
  }, [opened, link?.id]);

  const save = useAdminMutation(
    form,
    ({ childDefDossier, ...values }: Values) => {
      const body = { ...values, name: sanitiseLinkName(values.name) };
      return link
        ? patchItem('defdossierlink', link.id, body)
        : createItem('defdossierlink', {
            ...body,
            environment,
            uuid: newUuid(),
            defDossier,
            childDefDossier,
          });
    },
    { onSuccess: onClose },
  );
  const remove = useAdminMutation(form, (id: number) => deleteItem('defdossierlink', id), {
    onSuccess: onClose,
  });
  const mainError = !!(errors.name || errors.childDefDossier || errors.typeOfLink);
  const cascadeError = !!(errors.cascadeRule || errors.archiveCascadeRule || errors.settings);
  const backEntity = entities.find((entity) => entity.id === link?.child_def_dossier_id);

  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={link ? t('admin.link.edit_title') : t('admin.link.add_title')}
      testId="link-modal"
      onSubmit={form.handleSubmit(
        (values) => save.mutate(values),
        (invalid) =>
          setTab(invalid.name || invalid.childDefDossier || invalid.typeOfLink ? 'main' : 'cascade'),
      )}
      pending={save.isPending || remove.isPending}
      error={formError(form)}
      saveTestId="link-save"
      saveDisabled={!!link?.locked}
      actions={
        link && (
          <Button
            color="red"
            variant="light"
            loading={remove.isPending}
            onClick={() => {
              if (window.confirm(t('admin.link.confirm_delete'))) remove.mutate(link.id);
            }}
            data-testid="link-delete"
          >
            {t('admin.delete')}
          </Button>
        )
      }
    >
      {link?.locked && <Alert color="yellow">{translateMessage(t, ENTITY_MESSAGES.locked)}</Alert>}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="main" rightSection={<ErrorMark shown={mainError} />}>
            {t('admin.tabs.main')}
          </Tabs.Tab>
          <Tabs.Tab value="cascade" rightSection={<ErrorMark shown={cascadeError} />}>
            {t('admin.tabs.cascade')}
          </Tabs.Tab>
          {link && <Tabs.Tab value="info">{t('admin.tabs.info')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="main" pt="sm">
          <Stack>
            <FormTextInput
              control={form.control}
              name="name"
              label={t('admin.name')}
              required
              data-testid="link-name"
            />
            <FormSelect
              control={form.control}
              name="childDefDossier"
              numeric
              label={t('admin.entity')}
              required
              searchable
              data={entities.map((entity) => ({
                value: String(entity.id),
                label: entityName(entity, locale),
              }))}
              disabled={!!link}
              description={link ? translateMessage(t, ENTITY_MESSAGES.linkEntityFixed) : undefined}
              data-testid="link-entity"
            />
            <FormSelect
              control={form.control}
              name="typeOfLink"
              label={t('admin.link.type')}
              required
              allowDeselect={false}
              data={LINK_TYPES.map((value) => ({ value, label: t(`admin.link.types.${value}`) }))}
              data-testid="link-type"
            />
            <FormCheckbox control={form.control} name="obligatory" label={t('admin.obligatory')} />
            <FormCheckbox control={form.control} name="locked" label={t('admin.locked')} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="cascade" pt="sm">
          <Stack>
            <FormRadioGroup
              control={form.control}
              name="cascadeRule"
              label={t('admin.link.cascade_rule')}
              options={CASCADE_RULES.map((rule) => ({
                value: rule,
                label: t(`admin.link.cascade_rules.${rule}`),
              }))}
              data-testid="link-cascade-rule"
            />
            <FormRadioGroup
              control={form.control}
              name="archiveCascadeRule"
              label={t('admin.link.archive_cascade_rule')}
              options={ARCHIVE_CASCADE_RULES.map((rule) => ({
                value: rule,
                label: t(`admin.link.archive_cascade_rules.${rule || 'none'}`),
              }))}
              data-testid="link-archive-cascade-rule"
            />
            <Controller
              control={form.control}
              name="settings"
              render={({ field: settings }) => (
                <SettingsFields
                  type="link"
                  value={settings.value ?? {}}
                  onChange={settings.onChange}
                  inherited={parseFieldSettings('link')}
                  errors={nestedMessages(errors.settings, t)}
                  context={{ entity: defDossier, child: child ?? undefined }}
                />
              )}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="info" pt="sm">
          <Text size="sm">
            {t('admin.id')}: {link?.id} · {t('admin.entity')}: {entityName(backEntity, locale)} ·{' '}
            {t('admin.link.back_link')}: {link?.back_link_id ?? '-'}
          </Text>
        </Tabs.Panel>
      </Tabs>
    </AdminModal>
  );
}
