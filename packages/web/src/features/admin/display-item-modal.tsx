import {
  DISPLAY_VIEWS,
  type DisplayItem,
  DOSSIER_DATA_KEYS,
  displayItemCreateSchema,
  ENTITY_MESSAGES,
  idSchema,
  PERMISSION_TYPES,
  parseFieldSettings,
  REQUIRED_MESSAGE,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Group, Radio, ScrollArea, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useLocale } from '../../app/locale-provider';
import { sanitiseInformationText } from '../../fields/safe-html';
import { translateMessage } from '../../i18n/messages';
import { blockTitle } from '../dashboard/block-card';
import { useDashboardBlocks } from '../dashboard/dashboard-api';
import { useEnvironment } from '../environments/environment-store';
import {
  createItem,
  deleteItem,
  newUuid,
  patchItem,
  useCustomViews,
  useDataFields,
  useLinks,
  usePositions,
  useRoles,
} from './admin-api';
import { formError, nestedMessages, useAdminMutation } from './admin-form';
import { AdminModal, ErrorMark } from './admin-modal';
import { FieldRoleVisibility } from './field-role-visibility';
import {
  FormIdChecks,
  FormNumberInput,
  FormRadioGroup,
  FormSelect,
  FormTextarea,
  FormTextInput,
} from './form-controls';
import { DESIGNER_VIEWS, layoutInvalid } from './grid';
import { dataFieldLabel, dossierDataLabel, positionLabel, viewLabel } from './labels';
import { checkSettings } from './settings/check-settings';
import { DISPLAY_ITEM_SETTINGS } from './settings/setting-controls';
import { SettingsFields } from './settings/settings-fields';
import { useCultures } from './translations';

const SOURCES = ['field', 'link', 'block', 'dossier_data'] as const;
type Source = (typeof SOURCES)[number];
const core = displayItemCreateSchema.shape;
const label = z.object({ name: z.string().max(255), informationtext: z.string(), pretext: z.string() });
type Label = z.infer<typeof label>;
const EMPTY_LABEL: Label = { name: '', informationtext: '', pretext: '' };

/** `settingsType()` is the type of the chosen field ('link' for a link), known from the loaded fields. */
function itemSchema(settingsType: () => string | undefined) {
  return z
    .object({
      labels: z.record(z.string(), label),
      source: z.enum(SOURCES),
      defDossierDefField: idSchema.nullable(),
      defDossierLink: idSchema.nullable(),
      dossierData: z.enum(DOSSIER_DATA_KEYS),
      block: idSchema.nullable(),
      blockLink: idSchema.nullable(),
      view: core.view,
      displayPosition: idSchema.nullable(),
      col: core.col,
      colspan: core.colspan,
      rank: core.rank,
      roles: core.roles,
      permissions_type: core.permissions_type,
      settings: core.settings,
    })
    .superRefine((values, ctx) => {
      const missing =
        (values.source === 'field' && values.defDossierDefField === null && 'defDossierDefField') ||
        (values.source === 'link' && values.defDossierLink === null && 'defDossierLink');
      if (missing)
        ctx.addIssue({ code: 'custom', message: ENTITY_MESSAGES.chooseFieldOrLink, path: [missing] });
      if (values.source === 'block' && values.block === null)
        ctx.addIssue({ code: 'custom', message: REQUIRED_MESSAGE, path: ['block'] });
      const type = settingsType();
      if (type) checkSettings(type, values.settings, 'override', ctx);
    });
}
type Values = z.input<ReturnType<typeof itemSchema>>;
type Saved = z.output<ReturnType<typeof itemSchema>>;

function sourceOf(item: DisplayItem | null | undefined): Source {
  if (item?.def_dossier_link) return 'link';
  if (item?.def_dossier_def_field) return 'field';
  if (item?.settings?.dossier_data) return 'dossier_data';
  if (item?.settings?.block) return 'block';
  return 'field';
}

/** Adds or edits a display item: its labels, what it shows, where, for which roles, with which settings. */
export function DisplayItemModal({
  opened,
  onClose,
  defDossier,
  item,
  defaultPosition,
  defaultRank = 1,
}: {
  opened: boolean;
  onClose: () => void;
  defDossier: number;
  item?: DisplayItem | null;
  defaultPosition?: number;
  defaultRank?: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironment();
  const cultures = useCultures();
  const { data: fields = [] } = useDataFields(defDossier);
  const { data: links = [] } = useLinks(defDossier);
  const { data: positions = [] } = usePositions(defDossier);
  const { data: customViews = [] } = useCustomViews(defDossier);
  const { data: roles = [] } = useRoles();
  const blocks = useDashboardBlocks(opened ? (environment?.id ?? 0) : 0, false);
  const [tab, setTab] = useState<string | null>('labels');
  const settingsType = useRef<string | undefined>(undefined);
  const [schema] = useState(() => itemSchema(() => settingsType.current));
  const form = useForm<Values, unknown, Saved>({ resolver: zodResolver(schema), mode: 'onChange' });
  const { errors } = form.formState;

  // The first tab on opening only: a tab chosen while the record was loading stays chosen.
  useEffect(() => {
    if (opened) setTab('labels');
  }, [opened]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: cultures come from the environment, read when opening
  useEffect(() => {
    if (!opened) return;
    const settings = item?.settings ?? {};
    form.reset({
      labels: Object.fromEntries(
        cultures.map((culture) => {
          const tr = item?.translations.find((entry) => entry.culture === culture);
          return [
            culture,
            {
              name: tr?.name ?? '',
              informationtext: tr?.settings?.informationtext ?? '',
              pretext: tr?.settings?.pretext ?? '',
            },
          ];
        }),
      ),
      source: sourceOf(item),
      defDossierDefField: item?.def_dossier_def_field?.id ?? null,
      defDossierLink: item?.def_dossier_link?.id ?? null,
      dossierData: (DOSSIER_DATA_KEYS as readonly string[]).includes(String(settings.dossier_data))
        ? (settings.dossier_data as Values['dossierData'])
        : 'summary',
      block: Number(settings.block) || null,
      blockLink: Number(settings.block_link) || null,
      view: item?.view ?? 'show/edit',
      displayPosition: item?.display_position_id ?? defaultPosition ?? null,
      col: item?.col ?? 1,
      colspan: item?.colspan ?? 12,
      rank: item?.rank ?? defaultRank,
      roles: item?.roles.map((entry) => entry.role.id) ?? [],
      permissions_type: item?.permissions_type ?? 'EXCLUDE_SELECTED_ROLES',
      settings,
    });
  }, [opened, item?.id, defaultPosition, defaultRank]);

  const [source, fieldId, linkId, view, col, colspan, rank, labels] = form.watch([
    'source',
    'defDossierDefField',
    'defDossierLink',
    'view',
    'col',
    'colspan',
    'rank',
    'labels',
  ]);
  const chosenField = fields.find((field) => field.id === fieldId);
  const chosenLink = links.find((link) => link.id === linkId);
  const type = source === 'link' ? 'link' : source === 'field' ? chosenField?.def_field.type : undefined;
  settingsType.current = type;
  const inherited =
    source === 'link'
      ? parseFieldSettings('link', chosenLink?.settings)
      : chosenField
        ? parseFieldSettings(chosenField.def_field.type, chosenField.def_field.settings, chosenField.settings)
        : {};
  const locationView = (DESIGNER_VIEWS as readonly string[]).includes(view ?? '');
  const badLayout = layoutInvalid({ col, colspan, rank }) || !!(errors.col || errors.colspan || errors.rank);

  const save = useAdminMutation(
    form,
    (values: Saved) => {
      const settings: Record<string, unknown> = { ...values.settings };
      delete settings.block;
      delete settings.block_link;
      delete settings.dossier_data;
      // a block item shows its block about this dossier: through block_link when one is chosen
      if (values.source === 'block' && values.block) {
        settings.block = values.block;
        if (values.blockLink) settings.block_link = values.blockLink;
      }
      if (values.source === 'dossier_data') settings.dossier_data = values.dossierData;
      const body = {
        view: values.view,
        col: values.col,
        colspan: values.colspan,
        rank: values.rank,
        rowspan: 0,
        roles: values.roles,
        permissions_type: values.permissions_type,
        defaultPermissionType: '',
        translations: cultures.map((culture) => {
          const text = values.labels[culture] ?? EMPTY_LABEL;
          return {
            culture,
            name: text.name,
            settings: {
              informationtext: sanitiseInformationText(text.informationtext),
              pretext: sanitiseInformationText(text.pretext),
            },
          };
        }),
        settings,
        defDossierDefField: values.source === 'field' ? values.defDossierDefField : null,
        defDossierLink: values.source === 'link' ? values.defDossierLink : null,
      };
      return item
        ? patchItem('displayitem', item.id, body)
        : createItem('displayitem', {
            ...body,
            environment: environment?.id,
            defDossier,
            uuid: newUuid(),
            displayPosition: locationView ? values.displayPosition : null,
          });
    },
    // The spec closes the editor a moment after the saved item shows in the designer.
    { onSuccess: () => setTimeout(onClose, 300), fieldMap: { block_link: 'blockLink' } },
  );
  const remove = useAdminMutation(form, (id: number) => deleteItem('displayitem', id), {
    onSuccess: onClose,
  });

  const views = [...DISPLAY_VIEWS, ...customViews.map((custom) => custom.view_name)];
  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      size="xl"
      title={item ? `${t('admin.display.edit_title')} #${item.id}` : t('admin.display.add_title')}
      testId="display-modal"
      onSubmit={form.handleSubmit(
        (values) => save.mutate(values),
        (invalid) =>
          setTab(
            invalid.col || invalid.colspan || invalid.rank
              ? 'layout'
              : invalid.settings
                ? 'settings'
                : invalid.defDossierDefField || invalid.defDossierLink
                  ? 'field'
                  : 'labels',
          ),
      )}
      pending={save.isPending || remove.isPending}
      error={formError(form)}
      saveTestId="display-save"
      actions={
        item && (
          <Button
            color="red"
            variant="light"
            loading={remove.isPending}
            onClick={() => remove.mutate(item.id)}
            data-testid="display-delete"
          >
            {t('admin.delete')}
          </Button>
        )
      }
    >
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="labels">{t('admin.tabs.labels')}</Tabs.Tab>
          <Tabs.Tab
            value="field"
            rightSection={<ErrorMark shown={errors.defDossierDefField || errors.defDossierLink} />}
          >
            {t('admin.tabs.field')}
          </Tabs.Tab>
          <Tabs.Tab
            value="layout"
            rightSection={<ErrorMark shown={badLayout} testId="layout-error" />}
            data-testid="display-tab-layout"
          >
            {t('admin.tabs.layout')}
          </Tabs.Tab>
          <Tabs.Tab value="permissions">{t('admin.tabs.permissions')}</Tabs.Tab>
          {type && (
            <Tabs.Tab value="settings" rightSection={<ErrorMark shown={errors.settings} />}>
              {t('admin.tabs.settings')}
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="labels" pt="sm">
          <Stack>
            {cultures.map((culture) => {
              const text = labels?.[culture] ?? EMPTY_LABEL;
              return (
                <Box key={culture}>
                  <Text fw={600} size="sm">
                    {culture}
                  </Text>
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <Stack gap="xs">
                      <FormTextInput
                        control={form.control}
                        name={`labels.${culture}.name`}
                        label={t('admin.display.label')}
                        data-testid={`display-label-${culture}`}
                      />
                      <FormTextarea
                        control={form.control}
                        name={`labels.${culture}.informationtext`}
                        label={t('admin.display.information_text')}
                        autosize
                        minRows={2}
                      />
                      <FormTextarea
                        control={form.control}
                        name={`labels.${culture}.pretext`}
                        label={t('admin.display.pretext')}
                        autosize
                        minRows={2}
                      />
                    </Stack>
                    <Box>
                      <Text size="xs" c="dimmed">
                        {t('admin.display.preview')}
                      </Text>
                      <Box
                        p="xs"
                        style={{
                          border: '1px solid var(--mantine-color-gray-3)',
                          borderRadius: 4,
                          minHeight: 60,
                        }}
                        data-testid={`display-preview-${culture}`}
                        // Sanitised with DOMPurify to the contract's tags and attributes.
                        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised above
                        dangerouslySetInnerHTML={{
                          __html: sanitiseInformationText(`${text.pretext}<br/>${text.informationtext}`),
                        }}
                      />
                    </Box>
                  </SimpleGrid>
                </Box>
              );
            })}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="field" pt="sm">
          <Stack>
            <Controller
              control={form.control}
              name="source"
              render={({ field }) => (
                <Radio.Group value={field.value} onChange={field.onChange} label={t('admin.display.source')}>
                  <Group mt="xs">
                    <Radio value="field" label={t('admin.data_field.title')} disabled={!!item} />
                    <Radio value="link" label={t('admin.link.title')} disabled={!!item} />
                    <Radio
                      value="block"
                      label={t('admin.display.block')}
                      disabled={!!item}
                      data-testid="display-source-block"
                    />
                    <Radio value="dossier_data" label={t('admin.display.dossier_data')} disabled={!!item} />
                  </Group>
                </Radio.Group>
              )}
            />
            {source === 'field' && (
              <FormSelect
                control={form.control}
                name="defDossierDefField"
                numeric
                label={t('admin.data_field.title')}
                searchable
                data={fields.map((field) => ({ value: String(field.id), label: dataFieldLabel(t, field) }))}
                data-testid="display-field-picker"
              />
            )}
            {source === 'link' && (
              <FormSelect
                control={form.control}
                name="defDossierLink"
                numeric
                label={t('admin.link.title')}
                searchable
                data={links.map((link) => ({ value: String(link.id), label: link.name }))}
                data-testid="display-link-picker"
              />
            )}
            {source === 'block' && (
              <>
                <FormSelect
                  control={form.control}
                  name="block"
                  numeric
                  label={t('admin.display.block')}
                  searchable
                  data={(blocks.data?.results ?? []).map((block) => ({
                    value: String(block.id),
                    label: blockTitle(block, locale, t),
                  }))}
                  data-testid="display-block-picker"
                />
                <FormSelect
                  control={form.control}
                  name="blockLink"
                  numeric
                  clearable
                  label={t('dashboard_page.block_link')}
                  description={t('dashboard_page.block_link_help')}
                  data={links.map((link) => ({ value: String(link.id), label: link.name }))}
                  data-testid="display-block-link-picker"
                />
              </>
            )}
            {source === 'dossier_data' && (
              <FormSelect
                control={form.control}
                name="dossierData"
                label={t('admin.display.dossier_data')}
                allowDeselect={false}
                data={DOSSIER_DATA_KEYS.map((key) => ({ value: key, label: dossierDataLabel(t, key) }))}
                data-testid="display-dossier-data"
              />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="layout" pt="sm">
          <Stack>
            <FormSelect
              control={form.control}
              name="view"
              label={t('admin.display.view')}
              allowDeselect={false}
              data={views.map((entry) => ({ value: entry, label: viewLabel(t, entry) }))}
              disabled={!!item}
              data-testid="display-view"
            />
            {locationView && (
              <FormSelect
                control={form.control}
                name="displayPosition"
                numeric
                label={t('admin.display.position')}
                data={positions.map((p) => ({ value: String(p.id), label: positionLabel(t, p, locale) }))}
                disabled={!!item}
                description={item ? translateMessage(t, ENTITY_MESSAGES.locationFixed) : undefined}
                data-testid="display-position"
              />
            )}
            <SimpleGrid cols={3}>
              <FormNumberInput
                control={form.control}
                name="col"
                label={t('admin.display.col')}
                data-testid="display-col"
              />
              <FormNumberInput
                control={form.control}
                name="colspan"
                label={t('admin.display.colspan')}
                max={12}
                data-testid="display-colspan"
              />
              <FormNumberInput
                control={form.control}
                name="rank"
                label={t('admin.rank')}
                data-testid="display-rank"
              />
            </SimpleGrid>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="permissions" pt="sm">
          <Stack>
            {source === 'field' && chosenField ? <FieldRoleVisibility field={chosenField} /> : null}
            {source === 'field' && chosenField ? (
              <Text size="sm">{t('admin.field_visibility.item_hint')}</Text>
            ) : null}
            <FormRadioGroup
              control={form.control}
              name="permissions_type"
              label={t('admin.display.permission_type')}
              options={PERMISSION_TYPES.map((value) => ({
                value,
                label: t(`admin.display.permission_types.${value}`),
              }))}
            />
            <ScrollArea.Autosize mah={250}>
              <Stack gap={4}>
                <FormIdChecks
                  control={form.control}
                  name="roles"
                  items={roles.map((role) => ({ id: role.id, label: role.name }))}
                />
              </Stack>
            </ScrollArea.Autosize>
          </Stack>
        </Tabs.Panel>
        {type && (
          <Tabs.Panel value="settings" pt="sm">
            <Controller
              control={form.control}
              name="settings"
              render={({ field: settings }) => (
                <SettingsFields
                  type={type}
                  value={settings.value ?? {}}
                  onChange={settings.onChange}
                  inherited={inherited}
                  extra={DISPLAY_ITEM_SETTINGS}
                  errors={nestedMessages(errors.settings, t)}
                  context={{
                    entity: defDossier,
                    child: chosenLink?.child_def_dossier_id,
                    baseField: chosenField?.def_field.id,
                  }}
                />
              )}
            />
          </Tabs.Panel>
        )}
      </Tabs>
      {item && !locationView && (
        <Alert color="gray">{translateMessage(t, ENTITY_MESSAGES.locationFixed)}</Alert>
      )}
    </AdminModal>
  );
}
