import {
  BLOCK_TYPES,
  BLOCKS_WITHOUT_ENTITY,
  type Block,
  type BlockType,
  DATE_FORMATS,
  type DefDossierDefField,
  type DossierQuery,
  getFieldType,
  isFieldTypeName,
  STATISTIC_PERIODS,
  valueRefsOf,
} from '@dossierbase/core';
import {
  ActionIcon,
  Button,
  Checkbox,
  ColorInput,
  Group,
  NumberInput,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { callErrors } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import {
  entityName,
  newUuid,
  pickTranslation,
  roleName,
  useDataFields,
  useEntities,
  useLinks,
  useRoles,
} from '../admin/admin-api';
import { AdminModal, ErrorMark } from '../admin/admin-modal';
import { useCultures } from '../admin/translations';
import { useEnvironment } from '../environments/environment-store';
import { blockTitle } from './block-card';
import { ChartSettingsFields, ChartSettingsInfo } from './chart-settings-fields';
import { createBlock, deleteBlock, patchBlock } from './dashboard-api';
import { ContainerSettings, ListBlockSettings, RefreshRateSetting } from './list-block-settings';

// The block editor (spec document 1 sections 2, 4 and 5): a new block is posted, an existing one
// patched; success closes the modal and refreshes the dashboard, the server's field messages stay in
// the modal next to their inputs. Delete (only when editing) goes back to /.

/** Types whose entity is chosen here (the funnel's to find its list field). */
const ENTITY_TYPES: readonly BlockType[] = [
  'dashboard',
  'sum_fields',
  'count_list_options',
  'date_statistics',
  'count_link_options',
  'list_option_percentage_conditions',
  'geomap',
  'funnel',
];

type Settings = Record<string, unknown>;
interface SortRow {
  key: string;
  dddfId: string;
  sort: 'ASC' | 'DESC';
}
interface PieRow {
  key: string;
  title: string;
  color: string;
  total_query: string;
  dossier_query: string;
}

/** Which tab shows the input of a server field message. */
const TAB_OF: Record<string, string> = {
  type: 'generic',
  defDossier: 'generic',
  dossierQuery: 'generic',
  translations: 'generic',
  col: 'layout',
  rank: 'layout',
  parent: 'layout',
  dashboard: 'layout',
  roles: 'permissions',
  sort: 'sort',
};
const tabOf = (field: string) => TAB_OF[field] ?? 'specific';

const idOrNull = (value: unknown) =>
  value === null || value === undefined || value === '' ? null : Number(value);
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function isDateType(type: string) {
  return type.includes('date') && type !== 'systemdate';
}
function isSummable(field: DefDossierDefField) {
  const type = field.def_field.type;
  if (!isFieldTypeName(type) || valueRefsOf(type)) return false;
  try {
    const cast = getFieldType(type).sqlCast(field.def_field.settings as never);
    return cast === 'numeric' || cast === 'bigint';
  } catch {
    return false;
  }
}

export function BlockEditorModal({
  block,
  blocks,
  onClose,
  onSaved,
  onDeleted,
}: {
  block: Block | null;
  blocks: readonly Block[];
  onClose: () => void;
  onSaved: (block: Block) => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironment();
  const environmentId = environment?.id ?? 0;
  const cultures = useCultures();
  const [tab, setTab] = useState<string | null>('generic');
  const [type, setType] = useState<BlockType | ''>(block?.type ?? '');
  const [titles, setTitles] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      cultures.map((c) => [c, block?.translations.find((tr) => tr.culture === c)?.title ?? '']),
    ),
  );
  const [defDossier, setDefDossier] = useState<string>(text(block?.def_dossier?.id));
  const [dossierQuery, setDossierQuery] = useState<string>(text(block?.dossier_query?.id));
  const [parent, setParent] = useState<string>(text(block?.parent?.id));
  const [col, setCol] = useState<number | string>(block?.col ?? 12);
  const [rank, setRank] = useState<number | string>(block?.rank ?? 0);
  const [dashboard, setDashboard] = useState(block?.dashboard ?? true);
  const [roles, setRoles] = useState<number[]>(block?.roles ?? []);
  const [settings, setSettings] = useState<Settings>(block?.settings ?? {});
  const [sort, setSort] = useState<SortRow[]>(() =>
    Array.isArray(block?.settings.sort)
      ? (block.settings.sort as { dddfId: unknown; sort: unknown }[]).map((s) => ({
          key: newUuid(),
          dddfId: text(s.dddfId),
          sort: s.sort === 'DESC' ? 'DESC' : 'ASC',
        }))
      : [],
  );
  const [pies, setPies] = useState<PieRow[]>(() =>
    Array.isArray(block?.settings.pie_charts)
      ? (block.settings.pie_charts as Record<string, unknown>[]).map((p) => ({
          key: newUuid(),
          title: text(p.title),
          color: text(p.color),
          total_query: text(p.total_query),
          dossier_query: text(p.dossier_query),
        }))
      : [],
  );

  const entities = useEntities();
  const entityId = Number(defDossier) || 0;
  const fields = useDataFields(entityId);
  const links = useLinks(entityId);
  const rolesList = useRoles();
  const queries = useQuery({
    queryKey: ['dashboard', 'queries', environmentId, entityId],
    queryFn: ({ signal }) =>
      api
        .get<{ results: DossierQuery[] }>(
          '/dossierquery',
          { environment: environmentId, defDossier: entityId, limit: 500 },
          signal,
        )
        .then((answer) => answer.results),
    enabled: environmentId > 0 && entityId > 0,
  });

  const set = (key: string, value: unknown) => setSettings((current) => ({ ...current, [key]: value }));

  const body = () => {
    const out: Record<string, unknown> = {
      type: type || undefined,
      translations: cultures.map((culture) => ({ culture, title: titles[culture] ?? '' })),
      defDossier: type && ENTITY_TYPES.includes(type) ? idOrNull(defDossier) : null,
      dossierQuery: type && ENTITY_TYPES.includes(type) ? idOrNull(dossierQuery) : null,
      parent: idOrNull(parent),
      col: typeof col === 'number' ? col : Number(col) || col,
      rank: Number(rank) || 0,
      dashboard,
      roles,
      settings: {
        ...settings,
        ...(type === 'dashboard'
          ? { sort: sort.filter((s) => s.dddfId).map((s) => ({ dddfId: Number(s.dddfId), sort: s.sort })) }
          : {}),
        ...(type === 'list_option_percentage_conditions'
          ? {
              pie_charts: pies.map((p) => ({
                title: p.title,
                color: p.color || null,
                total_query: idOrNull(p.total_query),
                dossier_query: idOrNull(p.dossier_query),
              })),
            }
          : {}),
      },
    };
    return out;
  };

  const save = useMutation({
    mutationFn: () =>
      block
        ? patchBlock(block.id, body())
        : createBlock({ ...body(), environment: environmentId, uuid: newUuid() }),
    onSuccess: onSaved,
    onError: (error) => {
      const first = Object.keys(fieldNames(error))[0];
      if (first) setTab(tabOf(first));
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteBlock(block?.id ?? 0),
    onSuccess: () => onDeleted?.(),
  });
  const { fieldError, formError } = callErrors(save.error ?? remove.error, t);
  const errorIn = (name: string) =>
    save.error ? Object.keys(fieldNames(save.error)).some((field) => tabOf(field) === name) : false;

  const fieldOptions = (keep: (field: DefDossierDefField) => boolean) =>
    (fields.data ?? []).filter(keep).map((f) => ({ value: String(f.id), label: f.name }));
  const queryOptions = (queries.data ?? []).map((q) => ({
    value: String(q.id),
    label: pickTranslation(q.translations, locale)?.search_name || `#${q.id}`,
  }));
  const containers = blocks
    .filter((b) => b.type === 'block_container' && b.id !== block?.id)
    .map((b) => ({ value: String(b.id), label: blockTitle(b, locale, t) }));
  const withEntity = type !== '' && ENTITY_TYPES.includes(type);
  const entityRequired = type !== '' && !BLOCKS_WITHOUT_ENTITY.includes(type);
  const yesNo = (key: string, label: string) => (
    <Switch
      label={label}
      checked={settings[key] === true || settings[key] === 'yes'}
      onChange={(event) => set(key, event.currentTarget.checked)}
      data-testid={`block-setting-${key}`}
    />
  );
  const choice = (
    key: string,
    label: string,
    values: readonly string[],
    prefix: string,
    fallback?: string,
  ) => (
    <Select
      label={label}
      value={text(settings[key]) || fallback || null}
      onChange={(value) => set(key, value)}
      data={values.map((value) => ({ value, label: t(`${prefix}.${value}`) }))}
      error={fieldError(key)}
      data-testid={`block-setting-${key}`}
    />
  );

  return (
    <AdminModal
      opened
      onClose={onClose}
      title={
        block
          ? t('dashboard.editor.edit_title', { title: blockTitle(block, locale, t) })
          : t('dashboard.editor.new_title')
      }
      testId="block-editor"
      size="xl"
      onSubmit={() => save.mutate()}
      pending={save.isPending || remove.isPending}
      error={formError}
      saveTestId="block-editor-save"
      actions={
        block ? (
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} />}
            onClick={() => remove.mutate()}
            loading={remove.isPending}
            data-testid="block-editor-delete"
          >
            {t('dashboard.editor.delete')}
          </Button>
        ) : undefined
      }
    >
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab
            value="generic"
            rightSection={<ErrorMark shown={errorIn('generic')} />}
            data-testid="block-tab-generic"
          >
            {t('dashboard.editor.tabs.generic')}
          </Tabs.Tab>
          <Tabs.Tab
            value="layout"
            rightSection={<ErrorMark shown={errorIn('layout')} />}
            data-testid="block-tab-layout"
          >
            {t('dashboard.editor.tabs.layout')}
          </Tabs.Tab>
          <Tabs.Tab
            value="permissions"
            rightSection={<ErrorMark shown={errorIn('permissions')} />}
            data-testid="block-tab-permissions"
          >
            {t('dashboard.editor.tabs.permissions')}
          </Tabs.Tab>
          <Tabs.Tab value="sort" data-testid="block-tab-sort">
            {t('dashboard.editor.tabs.sort')}
          </Tabs.Tab>
          <Tabs.Tab
            value="specific"
            rightSection={<ErrorMark shown={errorIn('specific')} />}
            data-testid="block-tab-specific"
          >
            {t('dashboard.editor.tabs.specific')}
          </Tabs.Tab>
          {block && (
            <Tabs.Tab value="info" data-testid="block-tab-info">
              {t('dashboard.editor.tabs.info')}
            </Tabs.Tab>
          )}
        </Tabs.List>

        <Tabs.Panel value="generic" pt="md">
          <Stack>
            <Select
              label={t('dashboard.editor.type')}
              required
              value={type || null}
              onChange={(value) => setType((value ?? '') as BlockType | '')}
              data={BLOCK_TYPES.map((value) => ({ value, label: t(`dashboard.types.${value}`) }))}
              error={fieldError('type')}
              searchable
              data-testid="block-type"
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {cultures.map((culture) => (
                <TextInput
                  key={culture}
                  label={t('dashboard.editor.title_in', { language: culture })}
                  value={titles[culture] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setTitles((current) => ({ ...current, [culture]: value }));
                  }}
                  data-testid={`block-title-${culture}`}
                />
              ))}
            </SimpleGrid>
            {withEntity && (
              <Select
                label={t('dashboard.editor.entity')}
                required={entityRequired}
                value={defDossier || null}
                onChange={(value) => {
                  setDefDossier(value ?? '');
                  setDossierQuery('');
                }}
                data={(entities.data ?? []).map((e) => ({
                  value: String(e.id),
                  label: entityName(e, locale),
                }))}
                error={fieldError('defDossier')}
                clearable={!entityRequired}
                searchable
                data-testid="block-entity"
              />
            )}
            {withEntity && entityId > 0 && (
              <Select
                label={t('dashboard.editor.query')}
                value={dossierQuery || null}
                onChange={(value) => setDossierQuery(value ?? '')}
                data={queryOptions}
                error={fieldError('dossierQuery')}
                clearable
                placeholder={t('dashboard.editor.all_dossiers')}
                data-testid="block-query"
              />
            )}
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="layout" pt="md">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput
                label={t('dashboard.editor.col')}
                min={1}
                max={12}
                value={col}
                onChange={setCol}
                error={fieldError('col')}
                data-testid="block-col"
              />
              <NumberInput
                label={t('dashboard.editor.rank')}
                min={0}
                value={rank}
                onChange={setRank}
                error={fieldError('rank')}
                data-testid="block-rank"
              />
            </SimpleGrid>
            <Switch
              label={t('dashboard.editor.dashboard')}
              checked={dashboard}
              onChange={(event) => setDashboard(event.currentTarget.checked)}
              data-testid="block-dashboard"
            />
            <Select
              label={t('dashboard.editor.parent')}
              value={parent || null}
              onChange={(value) => setParent(value ?? '')}
              data={containers}
              clearable
              placeholder={t('dashboard.editor.no_parent')}
              error={fieldError('parent')}
              data-testid="block-parent"
            />
            <RefreshRateSetting settings={settings} set={set} fieldError={fieldError} />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="permissions" pt="md">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('dashboard.editor.roles_help')}
            </Text>
            {fieldError('roles') && (
              <Text c="red" size="sm">
                {fieldError('roles')}
              </Text>
            )}
            <Checkbox.Group
              value={roles.map(String)}
              onChange={(values) => setRoles(values.map(Number))}
              label={t('dashboard.editor.roles')}
            >
              <ScrollArea.Autosize mah={300}>
                <Stack gap={6} mt="xs">
                  {(rolesList.data ?? []).map((role) => (
                    <Checkbox
                      key={role.id}
                      value={String(role.id)}
                      label={roleName(role, locale)}
                      data-testid="block-role"
                    />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Checkbox.Group>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="sort" pt="md">
          {type !== 'dashboard' || entityId === 0 ? (
            <Text size="sm" c="dimmed">
              {t('dashboard.editor.sort_help')}
            </Text>
          ) : (
            <Stack gap="xs">
              {sort.map((row, index) => (
                <Group key={row.key} align="flex-end">
                  <Select
                    label={t('dashboard.editor.sort_field')}
                    value={row.dddfId || null}
                    onChange={(value) =>
                      setSort((rows) => rows.map((r, i) => (i === index ? { ...r, dddfId: value ?? '' } : r)))
                    }
                    data={fieldOptions(() => true)}
                    style={{ flex: 1 }}
                  />
                  <Select
                    label={t('dashboard.editor.sort_order')}
                    value={row.sort}
                    onChange={(value) =>
                      setSort((rows) =>
                        rows.map((r, i) =>
                          i === index ? { ...r, sort: value === 'DESC' ? 'DESC' : 'ASC' } : r,
                        ),
                      )
                    }
                    data={[
                      { value: 'ASC', label: t('dashboard.editor.ascending') },
                      { value: 'DESC', label: t('dashboard.editor.descending') },
                    ]}
                    allowDeselect={false}
                    w={160}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('dashboard.editor.remove_sort')}
                    onClick={() => setSort((rows) => rows.filter((_, i) => i !== index))}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => setSort((rows) => [...rows, { key: newUuid(), dddfId: '', sort: 'ASC' }])}
                w="fit-content"
              >
                {t('dashboard.editor.add_sort')}
              </Button>
            </Stack>
          )}
        </Tabs.Panel>

        <Tabs.Panel value="specific" pt="md">
          <Stack>
            {type === '' && (
              <Text size="sm" c="dimmed">
                {t('dashboard.editor.choose_type_first')}
              </Text>
            )}
            {(type === 'count_list_options' || type === 'funnel') && (
              <Select
                label={t('dashboard.editor.list_field')}
                required
                value={text(settings[type === 'funnel' ? 'list_field' : 'count_list_field']) || null}
                onChange={(value) =>
                  set(type === 'funnel' ? 'list_field' : 'count_list_field', idOrNull(value))
                }
                data={fieldOptions((f) => valueRefsOf(f.def_field.type) === 'options')}
                error={fieldError(type === 'funnel' ? 'list_field' : 'count_list_field')}
                placeholder={entityId ? undefined : t('dashboard.editor.choose_entity_first')}
                data-testid="block-setting-list-field"
              />
            )}
            {type === 'count_link_options' && (
              <Select
                label={t('dashboard.editor.link_field')}
                required
                value={text(settings.count_link_field) || null}
                onChange={(value) => set('count_link_field', idOrNull(value))}
                data={(links.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
                error={fieldError('count_link_field')}
                data-testid="block-setting-count_link_field"
              />
            )}
            {type === 'sum_fields' && (
              <Select
                label={t('dashboard.editor.sum_field')}
                required
                value={text(settings.sum_field) || null}
                onChange={(value) => set('sum_field', idOrNull(value))}
                data={fieldOptions(isSummable)}
                error={fieldError('sum_field')}
                data-testid="block-setting-sum_field"
              />
            )}
            {(type === 'count_list_options' ||
              type === 'count_link_options' ||
              type === 'date_statistics') && (
              <>
                {type !== 'date_statistics' &&
                  yesNo('use_creation_date', t('dashboard.editor.use_creation_date'))}
                {settings.use_creation_date !== true && (
                  <Select
                    label={t('dashboard.editor.date_field')}
                    value={text(settings.date_field) || null}
                    onChange={(value) => set('date_field', idOrNull(value))}
                    data={fieldOptions((f) => isDateType(f.def_field.type))}
                    placeholder={t('dashboard.editor.creation_date')}
                    clearable
                    error={fieldError('date_field')}
                    data-testid="block-setting-date_field"
                  />
                )}
                {type === 'date_statistics'
                  ? choice(
                      'period',
                      t('dashboard.editor.period'),
                      STATISTIC_PERIODS,
                      'dashboard.statistic_period',
                    )
                  : choice(
                      'date_format',
                      t('dashboard.editor.date_format'),
                      DATE_FORMATS,
                      'dashboard.date_format',
                      'year_month',
                    )}
              </>
            )}
            {type === 'dashboard' && (
              <ListBlockSettings
                settings={settings}
                set={set}
                fieldError={fieldError}
                entity={entityId}
                queries={queryOptions}
              />
            )}
            {type === 'block_container' && (
              <ContainerSettings settings={settings} set={set} fieldError={fieldError} />
            )}
            {type === 'dashboard' && (
              <NumberInput
                label={t('dashboard.editor.limit')}
                min={1}
                max={100}
                value={typeof settings.limit === 'number' ? settings.limit : 10}
                onChange={(value) => set('limit', Number(value) || 10)}
                error={fieldError('limit')}
                data-testid="block-setting-limit"
              />
            )}
            {type === 'list_option_percentage_conditions' && (
              <Stack gap="xs">
                {pies.map((pie, index) => (
                  <Paper key={pie.key} withBorder p="xs" data-testid="block-pie">
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <TextInput
                        label={t('dashboard.editor.pie_title')}
                        value={pie.title}
                        onChange={(event) => {
                          const value = event.currentTarget.value;
                          setPies((rows) => rows.map((r, i) => (i === index ? { ...r, title: value } : r)));
                        }}
                        data-testid="block-pie-title"
                      />
                      <ColorInput
                        label={t('dashboard.editor.pie_color')}
                        value={pie.color}
                        onChange={(value) =>
                          setPies((rows) => rows.map((r, i) => (i === index ? { ...r, color: value } : r)))
                        }
                      />
                      <Select
                        label={t('dashboard.editor.total_query')}
                        value={pie.total_query || null}
                        onChange={(value) =>
                          setPies((rows) =>
                            rows.map((r, i) => (i === index ? { ...r, total_query: value ?? '' } : r)),
                          )
                        }
                        data={queryOptions}
                        clearable
                        placeholder={t('dashboard.editor.all_dossiers')}
                      />
                      <Select
                        label={t('dashboard.editor.part_query')}
                        value={pie.dossier_query || null}
                        onChange={(value) =>
                          setPies((rows) =>
                            rows.map((r, i) => (i === index ? { ...r, dossier_query: value ?? '' } : r)),
                          )
                        }
                        data={queryOptions}
                        clearable
                        placeholder={t('dashboard.editor.all_dossiers')}
                        data-testid="block-pie-part"
                      />
                    </SimpleGrid>
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      mt="xs"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => setPies((rows) => rows.filter((_, i) => i !== index))}
                    >
                      {t('dashboard.editor.remove_pie')}
                    </Button>
                  </Paper>
                ))}
                {fieldError('pie_charts') && (
                  <Text c="red" size="sm">
                    {fieldError('pie_charts')}
                  </Text>
                )}
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  w="fit-content"
                  onClick={() =>
                    setPies((rows) => [
                      ...rows,
                      { key: newUuid(), title: '', color: '', total_query: '', dossier_query: '' },
                    ])
                  }
                  data-testid="block-add-pie"
                >
                  {t('dashboard.editor.add_pie')}
                </Button>
              </Stack>
            )}
            {type !== '' && (
              <ChartSettingsFields type={type} settings={settings} set={set} fieldError={fieldError} />
            )}
            {type !== '' && ['online_users', 'active_users', 'geomap'].includes(type) && (
              <Text size="sm" c="dimmed">
                {t('dashboard.editor.no_settings')}
              </Text>
            )}
          </Stack>
        </Tabs.Panel>

        {block && (
          <Tabs.Panel value="info" pt="md">
            <Table data-testid="block-info">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th>{t('dashboard.editor.id')}</Table.Th>
                  <Table.Td>{block.id}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('dashboard.editor.uuid')}</Table.Th>
                  <Table.Td>{block.uuid}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('dashboard.editor.type')}</Table.Th>
                  <Table.Td>{t(`dashboard.types.${block.type}`)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('dashboard.editor.children')}</Table.Th>
                  <Table.Td>{block.children.length}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            <ChartSettingsInfo type={block.type} />
          </Tabs.Panel>
        )}
      </Tabs>
    </AdminModal>
  );
}

/** The server's field messages of a failed save, by field. */
function fieldNames(error: unknown): Record<string, string> {
  const errors = (error as { fieldErrors?: Record<string, string> | null } | null)?.fieldErrors;
  return errors ?? {};
}
