import {
  ARCHIVED_CHOICES,
  type ArchivedChoice,
  type DossierQuery,
  type QueryTranslation,
  REQUIRED_MESSAGE,
} from '@dossierbase/core';
import {
  ActionIcon,
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconCheck,
  IconDeviceFloppy,
  IconExternalLink,
  IconInfoCircle,
  IconLanguage,
  IconSquarePlus,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDate } from '../../app/format';
import { useLocale } from '../../app/locale-provider';
import { NotFoundPage } from '../../app/not-found-page';
import { translateMessage } from '../../i18n/messages';
import { entityName, refreshEnvironment, useEntities, useEnvironmentId } from '../admin/admin-api';
import { AdminOnly } from '../admin/admin-guard';
import { AdminModal } from '../admin/admin-modal';
import { useCultures, withFallback } from '../admin/translations';
import { useEnvironmentUsers } from '../dossiers/use-environment-users';
import { ARCHIVED, CombinatorList, EditorContext } from './combinator-editor';
import { countQuery, createQuery, patchQuery, queryKeys, queryName, useDossierQuery } from './queries-api';
import { type DocumentDraft, incompletePaths, newCombinator, toDocument, toDraft } from './query-tree';

/** How long the saved banner stays (spec: 2 seconds), and how long the count waits for typing to stop. */
const SAVED_BANNER_MS = 2000;
const COUNT_DEBOUNCE_MS = 400;

const SYSTEM_ID = /^data\.(\d+|created_at|created_by|modified_at|modified_by|id|summary)$/;
/** Messages that belong to no single condition (nesting, cycles, the names): shown above the groups. */
const isGeneral = (key: string) => !key.startsWith('data.combinators.') && !SYSTEM_ID.test(key);

export function QueryEditorPage() {
  const id = Number(useParams().id) || 0;
  return (
    <AdminOnly>
      <QueryEditor key={id} id={id} />
    </AdminOnly>
  );
}

function QueryEditor({ id }: { id: number }) {
  const query = useDossierQuery(id);
  if (id && (isApiError(query.error, 404) || isApiError(query.error, 400))) return <NotFoundPage />;
  if (id && query.isLoading) return <Loader />;
  if (id && query.isError) return <QueryLoadError error={query.error} />;
  return <QueryForm stored={query.data} />;
}

function QueryLoadError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return <Alert color="red">{errorMessage(error, t)}</Alert>;
}

function QueryForm({ stored }: { stored: DossierQuery | undefined }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const environment = useEnvironmentId();
  const cultures = useCultures();
  const { data: entities = [] } = useEntities();
  const members = useEnvironmentUsers();
  const id = stored?.id ?? 0;

  const [entityId, setEntityId] = useState(stored?.def_dossier.id ?? 0);
  const [draft, setDraft] = useState<DocumentDraft>(() => toDraft(stored?.data));
  const [translations, setTranslations] = useState<QueryTranslation[]>(stored?.translations ?? []);
  const [showRequired, setShowRequired] = useState(false);
  const [saved, setSaved] = useState(() => (location.state as { saved?: boolean } | null)?.saved === true);
  const [translating, setTranslating] = useState(false);
  const [informing, setInforming] = useState(false);

  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => setSaved(false), SAVED_BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [saved]);

  const document = useMemo(() => toDocument(draft), [draft]);
  const json = JSON.stringify(document);
  const [debounced] = useDebouncedValue(json, COUNT_DEBOUNCE_MS);
  const count = useQuery({
    queryKey: queryKeys.count(environment, entityId, debounced),
    queryFn: () => countQuery({ environment, defDossier: entityId, data: JSON.parse(debounced) }),
    enabled: environment > 0 && entityId > 0,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

  const save = useMutation({
    mutationFn: () => {
      // a language left without a search name takes the first one given
      const names = withFallback(
        cultures,
        Object.fromEntries(translations.map((tr) => [tr.culture, tr.search_name])),
      );
      const named = cultures.map((culture) => ({
        culture,
        search_name: names[culture] ?? '',
        dashboard_name: translations.find((tr) => tr.culture === culture)?.dashboard_name ?? '',
      }));
      const body = { data: document, translations: named };
      return id ? patchQuery(id, body) : createQuery({ ...body, environment, defDossier: entityId });
    },
    onSuccess: async (answer) => {
      queryClient.setQueryData(queryKeys.one(answer.id), answer);
      await queryClient.invalidateQueries({ queryKey: queryKeys.all });
      // menus and lists name queries through the environment answer
      await refreshEnvironment();
      if (!id) navigate(`/querybuilder/${answer.id}`, { replace: true, state: { saved: true } });
      else setSaved(true);
    },
  });
  // a change makes the last save's messages stale
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the document changes
  useEffect(() => save.reset(), [json]);

  const errors = useMemo(() => {
    const out: Record<string, string> = {};
    const countErrors = isApiError(count.error, 400) && debounced === json ? count.error.fieldErrors : null;
    Object.assign(out, countErrors ?? {}, (isApiError(save.error) && save.error.fieldErrors) || {});
    if (showRequired) for (const path of incompletePaths(draft)) out[path] = REQUIRED_MESSAGE;
    return out;
  }, [count.error, save.error, showRequired, draft, debounced, json]);
  const general = [
    ...new Set(
      Object.entries(errors)
        .filter(([key]) => isGeneral(key))
        .map(([, message]) => translateMessage(t, message)),
    ),
  ];
  const failure = save.error && !isApiError(save.error, 400) ? errorMessage(save.error, t) : null;

  const submit = () => {
    setShowRequired(true);
    if (!entityId || incompletePaths(draft).length > 0) return;
    save.mutate();
  };

  const entity = entities.find((e) => e.id === entityId);
  const title = id ? queryName(stored, locale) : t('queries.new');

  return (
    <EditorContext.Provider value={{ errors, users: members.users, loadUsers: members.loadUsers }}>
      <Stack data-testid="query-editor" data-query-id={id}>
        <Breadcrumbs data-testid="query-breadcrumbs">
          <Anchor component={Link} to="/">
            {t('menu.dashboard')}
          </Anchor>
          <Anchor component={Link} to="/querybuilder">
            {t('queries.title')}
          </Anchor>
          <Text>{t('queries.edit')}</Text>
        </Breadcrumbs>
        <Group justify="space-between" wrap="wrap">
          <Title order={1} size="h3" data-testid="query-title">
            {title}
          </Title>
          <Group gap="xs">
            <Tooltip label={t('queries.info')}>
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setInforming(true)}
                aria-label={t('queries.info')}
                data-testid="query-info"
              >
                <IconInfoCircle size={18} />
              </ActionIcon>
            </Tooltip>
            <Button
              variant="default"
              leftSection={<IconLanguage size={16} />}
              onClick={() => setTranslating(true)}
              data-testid="query-translations"
            >
              {t('queries.names')}
            </Button>
            {id > 0 ? (
              <Button
                variant="default"
                component="a"
                href={`/querybuilder/${id}`}
                target="_blank"
                rel="noopener"
                leftSection={<IconExternalLink size={16} />}
                data-testid="query-new-tab"
              >
                {t('queries.new_tab')}
              </Button>
            ) : null}
            <Button
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={submit}
              loading={save.isPending}
              disabled={!entityId}
              data-testid="query-save"
            >
              {t('admin.save')}
            </Button>
          </Group>
        </Group>
        {saved ? (
          <Alert color="green" icon={<IconCheck size={16} />} role="status" data-testid="query-saved">
            {t('queries.saved')}
          </Alert>
        ) : null}
        {failure || general.length ? (
          <Alert color="red" data-testid="form-error">
            {[failure, ...general].filter(Boolean).join(' ')}
          </Alert>
        ) : null}
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {entityId ? (
              <Stack gap={2}>
                <Text size="sm" fw={500}>
                  {t('queries.entity')}
                </Text>
                <Text data-testid="query-entity-name">{entityName(entity, locale)}</Text>
              </Stack>
            ) : (
              <Select
                label={t('queries.entity')}
                placeholder={t('queries.choose_entity')}
                data={entities.map((e) => ({ value: String(e.id), label: entityName(e, locale) }))}
                value={null}
                onChange={(next) => next && setEntityId(Number(next))}
                searchable
                required
                error={showRequired ? translateMessage(t, REQUIRED_MESSAGE) : undefined}
                data-testid="query-entity"
              />
            )}
            <Select
              label={t('queries.archive_filter')}
              data={ARCHIVED.map((choice) => ({ value: choice, label: t(`queries.archived.${choice}`) }))}
              value={draft.include_archived}
              onChange={(next) =>
                next &&
                (ARCHIVED_CHOICES as readonly string[]).includes(next) &&
                setDraft({ ...draft, include_archived: next as ArchivedChoice })
              }
              allowDeselect={false}
              data-testid="query-archived"
            />
            {entityId ? (
              <Stack gap={2}>
                <Text size="sm" fw={500}>
                  {t('queries.count_label')}
                </Text>
                <Group gap="xs">
                  <Text
                    aria-live="polite"
                    data-testid="query-count"
                    data-count={count.data && !count.isPlaceholderData ? count.data.items : undefined}
                  >
                    {count.isError && debounced === json ? '–' : count.data ? String(count.data.items) : '…'}
                  </Text>
                  {count.isFetching ? <Loader size="xs" aria-hidden /> : null}
                </Group>
              </Stack>
            ) : null}
          </SimpleGrid>
        </Paper>
        {entityId ? (
          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {draft.combinators.length ? t('queries.groups_hint') : t('queries.no_groups')}
              </Text>
              <Button
                variant="light"
                leftSection={<IconSquarePlus size={16} />}
                onClick={() => setDraft({ ...draft, combinators: [...draft.combinators, newCombinator()] })}
                data-testid="query-add-combinator"
              >
                {t('queries.add_combinator')}
              </Button>
            </Group>
            <CombinatorList
              entityId={entityId}
              value={draft.combinators}
              onChange={(combinators) => setDraft({ ...draft, combinators })}
              path="data.combinators"
              depth={1}
            />
          </Stack>
        ) : null}
      </Stack>
      <TranslationsModal
        opened={translating}
        cultures={cultures}
        value={translations}
        onClose={() => setTranslating(false)}
        onChange={(next) => {
          setTranslations(next);
          setTranslating(false);
        }}
      />
      <InfoModal opened={informing} stored={stored} onClose={() => setInforming(false)} />
    </EditorContext.Provider>
  );
}

/** The query's names per language: the name in searches and menus, and the title on the dashboard. */
function TranslationsModal({
  opened,
  cultures,
  value,
  onClose,
  onChange,
}: {
  opened: boolean;
  cultures: readonly string[];
  value: QueryTranslation[];
  onClose: () => void;
  onChange: (next: QueryTranslation[]) => void;
}) {
  const { t } = useTranslation();
  const initial = () =>
    cultures.map(
      (culture) =>
        value.find((tr) => tr.culture === culture) ?? { culture, search_name: '', dashboard_name: '' },
    );
  const [texts, setTexts] = useState(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the stored names each time it opens
  useEffect(() => {
    if (opened) setTexts(initial());
  }, [opened]);
  const set = (culture: string, patch: Partial<QueryTranslation>) =>
    setTexts(texts.map((tr) => (tr.culture === culture ? { ...tr, ...patch } : tr)));
  return (
    <AdminModal
      opened={opened}
      onClose={onClose}
      title={t('queries.names')}
      testId="query-translations-modal"
      size="lg"
      onSubmit={() => onChange(texts)}
      saveLabel={t('queries.apply')}
      saveTestId="query-translations-apply"
    >
      <Text size="sm" c="dimmed">
        {t('queries.names_hint')}
      </Text>
      {texts.map((tr) => (
        <SimpleGrid key={tr.culture} cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={`${t('queries.search_name')} (${tr.culture})`}
            value={tr.search_name}
            onChange={(event) => set(tr.culture, { search_name: event.currentTarget.value })}
            maxLength={255}
            data-testid={`query-search-name-${tr.culture}`}
          />
          <TextInput
            label={`${t('queries.dashboard_name')} (${tr.culture})`}
            value={tr.dashboard_name}
            onChange={(event) => set(tr.culture, { dashboard_name: event.currentTarget.value })}
            maxLength={255}
            data-testid={`query-dashboard-name-${tr.culture}`}
          />
        </SimpleGrid>
      ))}
    </AdminModal>
  );
}

function InfoModal({
  opened,
  stored,
  onClose,
}: {
  opened: boolean;
  stored: DossierQuery | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rows: [string, string][] = stored
    ? [
        [t('admin.id'), String(stored.id)],
        ['UUID', stored.uuid],
        [t('queries.created'), `${formatDate(stored.created_at)} · ${stored.created_by?.username ?? ''}`],
        [t('queries.modified'), `${formatDate(stored.modified_at)} · ${stored.modified_by?.username ?? ''}`],
      ]
    : [];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('queries.info')}
      size="lg"
      data-testid="query-info-modal"
    >
      <Stack>
        <Text size="sm">{t('queries.info_text')}</Text>
        <Text size="sm">{t('queries.info_links')}</Text>
        {rows.length ? (
          <Table>
            <Table.Tbody>
              {rows.map(([label, text]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row">{label}</Table.Th>
                  <Table.Td>{text}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="query-info-close">
            {t('common.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
