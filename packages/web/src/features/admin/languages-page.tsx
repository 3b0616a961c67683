import { catalogueEntries, type EnvironmentText, type Locale, makePager } from '@dossierbase/core';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api/client';
import { actionErrorMessage, notifyFailure, notifySuccess } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import { LOCALE_NAMES, languageOf } from '../../app/locale';
import { LocaleFlag } from '../../app/locale-flag';
import { useLocale } from '../../app/locale-provider';
import { AnswerPager } from '../../app/pager';
import { LANGUAGES, loadCatalogue } from '../../i18n';
import { translateMessage } from '../../i18n/messages';
import { environmentStore, useEnvironment } from '../environments/environment-store';
import { addEnvironmentLocale, listLocales } from '../environments/environments-api';
import { AdminOnly } from './admin-guard';

// /languages (issue 16, part 4): the environment's locales, added and removed (never the last one),
// and its own wording of the interface texts of the six catalogues, per language.

/** Each catalogue's language in its own words, as the language switch names locales. */
const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  ru: 'Русский',
};

const TEXT_PAGE_SIZE = 20;
const SEARCH_DEBOUNCE_MS = 200;
const PLACEHOLDER = /{{\s*[\w.]+\s*}}/g;

export function LanguagesPage() {
  const { t } = useTranslation();
  return (
    <AdminOnly>
      <Stack maw={960} data-testid="languages-page">
        <Title order={1} size="h3">
          {t('languages.title')}
        </Title>
        <EnvironmentLocales />
        <InterfaceTexts />
      </Stack>
    </AdminOnly>
  );
}

/** The locales of the environment with their flags: added from the known ones, removed but the last. */
function EnvironmentLocales() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const environmentId = environment?.id ?? 0;
  const current = environment?.locales ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Locale | null>(null);
  const known = useQuery({ queryKey: queryKeys.locales, queryFn: ({ signal }) => listLocales(signal) });

  /** The environment's locales as the server has them now, into the store: the shell offers them at once. */
  const refresh = async () => {
    const { results } = await api.get<{ results: Locale[] }>('/environment-locale', {
      environment: environmentId,
    });
    const stored = environmentStore.get();
    if (stored && stored.id === environmentId) environmentStore.set({ ...stored, locales: results });
  };

  const add = useMutation({
    mutationFn: (code: string) => addEnvironmentLocale(environmentId, code),
    onSuccess: async (_answer, code) => {
      await refresh();
      setChosen(null);
      notifySuccess(t('languages.added', { name: LOCALE_NAMES[code] ?? code }));
    },
    onError: (error) => notifyFailure(actionErrorMessage(error, t), t('common.error')),
  });
  const remove = useMutation({
    mutationFn: (code: string) => api.delete<void>(`/environment/${environmentId}/locale/${code}`),
    onSuccess: async (_answer, code) => {
      await refresh();
      setRemoving(null);
      notifySuccess(t('languages.removed', { name: LOCALE_NAMES[code] ?? code }));
    },
  });

  const addable = (known.data?.results ?? []).filter(
    (locale) => !current.some((own) => own.code === locale.code),
  );
  const last = current.length <= 1;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) add.mutate(chosen);
  };

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          {t('languages.locales_title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('languages.locales_text')}
        </Text>
        <Table data-testid="languages-locales">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('languages.language')}</Table.Th>
              <Table.Th>{t('languages.code')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('languages.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {current.map((locale) => (
              <Table.Tr key={locale.code} data-testid={`languages-locale-${locale.code}`}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <LocaleFlag locale={locale.code} />
                    <Text size="sm">{LOCALE_NAMES[locale.code] ?? locale.name}</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Code>{locale.code}</Code>
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    disabled={last}
                    aria-label={t('languages.remove_named', {
                      name: LOCALE_NAMES[locale.code] ?? locale.name,
                    })}
                    onClick={() => setRemoving(locale)}
                    data-testid={`languages-remove-${locale.code}`}
                  >
                    {t('languages.remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {last && (
          <Text size="sm" c="dimmed" data-testid="languages-last">
            {t('languages.last_language')}
          </Text>
        )}
        <form onSubmit={submit}>
          <Group align="flex-end">
            <Select
              label={t('languages.add_label')}
              placeholder={addable.length ? t('languages.add_placeholder') : t('languages.all_added')}
              data={addable.map((locale) => ({
                value: locale.code,
                label: `${LOCALE_NAMES[locale.code] ?? locale.name} (${locale.code})`,
              }))}
              value={chosen}
              onChange={setChosen}
              disabled={addable.length === 0}
              renderOption={({ option }) => (
                <Group gap="xs" wrap="nowrap">
                  <LocaleFlag locale={option.value} />
                  <span>{option.label}</span>
                </Group>
              )}
              w={280}
              data-testid="languages-add-select"
            />
            <Button
              type="submit"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={!chosen}
              loading={add.isPending}
              data-testid="languages-add"
            >
              {t('languages.add')}
            </Button>
          </Group>
        </form>
      </Stack>
      <Modal
        opened={removing !== null}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        title={t('languages.remove_title')}
        centered
      >
        <Stack>
          <Text size="sm">
            {t('languages.remove_text', {
              name: removing ? (LOCALE_NAMES[removing.code] ?? removing.name) : '',
            })}
          </Text>
          {remove.error && (
            <Alert color="red" role="alert" data-testid="languages-remove-error">
              {actionErrorMessage(remove.error, t)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)} data-autofocus>
              {t('common.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => removing && remove.mutate(removing.code)}
              data-testid="languages-remove-confirm"
            >
              {t('languages.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

interface TextRow {
  key: string;
  catalogue: string;
  own: string | null;
}

/** The catalogue texts of a language with the environment's own wording; searched, changed and reset. */
function InterfaceTexts() {
  const { t } = useTranslation();
  const environmentId = useEnvironment()?.id ?? 0;
  const { locale } = useLocale();
  const [language, setLanguage] = useState(() => {
    const current = locale ? languageOf(locale) : 'en';
    return LANGUAGES.includes(current) ? current : 'en';
  });
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const [changedOnly, setChangedOnly] = useState(false);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<TextRow | null>(null);

  // the language's own texts (not a locale's): the same query the shell reads them with for that language
  const texts = useQuery({
    queryKey: queryKeys.environmentTexts(environmentId, language),
    queryFn: ({ signal }) =>
      api.get<{ results: EnvironmentText[] }>(
        `/environment/${environmentId}/text`,
        { locale: language },
        signal,
      ),
    enabled: environmentId > 0,
  });

  // the language's catalogue as written (not the environment's wording), loaded when first chosen
  const catalogue = useQuery({
    queryKey: queryKeys.catalogue(language),
    queryFn: () => loadCatalogue(language),
    staleTime: Number.POSITIVE_INFINITY,
  });

  const rows = useMemo<TextRow[]>(() => {
    if (!catalogue.data) return [];
    const own = new Map(
      (texts.data?.results ?? []).filter((r) => r.locale === language).map((r) => [r.key, r.value]),
    );
    return catalogueEntries(catalogue.data).map(([key, text]) => ({
      key,
      catalogue: text,
      own: own.get(key) ?? null,
    }));
  }, [texts.data, catalogue.data, language]);
  const found = rows.filter(
    (row) =>
      (!changedOnly || row.own !== null) &&
      (!term ||
        row.key.toLowerCase().includes(term) ||
        row.catalogue.toLowerCase().includes(term) ||
        (row.own ?? '').toLowerCase().includes(term)),
  );
  const pager = makePager(page, TEXT_PAGE_SIZE, found.length);
  const shown = found.slice(page * TEXT_PAGE_SIZE, (page + 1) * TEXT_PAGE_SIZE);
  const changed = rows.filter((row) => row.own !== null).length;

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          {t('languages.texts_title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('languages.texts_text')}
        </Text>
        <Group align="flex-end">
          <Select
            label={t('languages.texts_language')}
            data={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] ?? code }))}
            value={language}
            onChange={(next) => {
              if (next) setLanguage(next);
              setPage(0);
            }}
            allowDeselect={false}
            w={200}
            data-testid="languages-texts-language"
          />
          <TextInput
            label={t('languages.texts_search')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(0);
            }}
            w={320}
            data-testid="languages-texts-search"
          />
          <Switch
            label={t('languages.texts_changed_only', { count: changed })}
            checked={changedOnly}
            onChange={(event) => {
              setChangedOnly(event.currentTarget.checked);
              setPage(0);
            }}
            mb={8}
            data-testid="languages-texts-changed"
          />
        </Group>
        {texts.isPending || catalogue.isPending ? (
          <Loader />
        ) : texts.isError || catalogue.isError ? (
          <Alert color="red">{t('common.something_went_wrong')}</Alert>
        ) : (
          <>
            <Text size="sm" aria-live="polite" data-testid="languages-texts-count">
              {t('languages.texts_found', { count: found.length })}
            </Text>
            {shown.length > 0 && (
              <Table data-testid="languages-texts" layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w="28%">{t('languages.texts_key')}</Table.Th>
                    <Table.Th>{t('languages.texts_catalogue')}</Table.Th>
                    <Table.Th>{t('languages.texts_own')}</Table.Th>
                    <Table.Th w={110}>
                      <VisuallyHidden>{t('languages.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((row) => (
                    <Table.Tr key={row.key} data-testid={`languages-text-${row.key}`}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Code>{row.key}</Code>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="sm">{row.catalogue}</Text>
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {row.own === null ? (
                          <Text size="sm" c="dimmed">
                            {t('languages.texts_not_changed')}
                          </Text>
                        ) : (
                          <Group gap={6} wrap="nowrap" align="flex-start">
                            <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                              {t('languages.texts_changed_badge')}
                            </Badge>
                            <Text size="sm">{row.own}</Text>
                          </Group>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          variant="light"
                          size="xs"
                          onClick={() => setEditing(row)}
                          aria-label={t('languages.texts_edit_named', { key: row.key })}
                          data-testid={`languages-text-edit-${row.key}`}
                        >
                          {t('languages.texts_edit')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <AnswerPager pager={pager} page={page} onPage={setPage} />
          </>
        )}
      </Stack>
      {editing && (
        <TextEditor
          key={`${language}:${editing.key}`}
          environmentId={environmentId}
          language={language}
          row={editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Paper>
  );
}

function TextEditor({
  environmentId,
  language,
  row,
  onClose,
}: {
  environmentId: number;
  language: string;
  row: TextRow;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(row.own ?? row.catalogue);
  const url = `/environment/${environmentId}/text/${language}/${encodeURIComponent(row.key)}`;
  // every locale's texts of the environment are read again, so the shell shows the change at once
  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['environment', environmentId, 'text'] });
    notifySuccess(message);
    onClose();
  };
  const save = useMutation({
    mutationFn: () => api.put<EnvironmentText>(url, { value }),
    onSuccess: () => done(t('languages.texts_saved')),
  });
  const reset = useMutation({
    mutationFn: () => api.delete<void>(url),
    onSuccess: () => done(t('languages.texts_reset_done')),
  });
  const fieldError = isApiError(save.error, 400) ? save.error.fieldErrors?.value : undefined;
  const otherError =
    (save.error && !fieldError ? actionErrorMessage(save.error, t) : null) ??
    (reset.error ? actionErrorMessage(reset.error, t) : null);
  const expected = row.catalogue.match(PLACEHOLDER) ?? [];
  const missing = expected.filter((placeholder) => !value.includes(placeholder));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <Modal opened onClose={onClose} title={t('languages.texts_edit_title')} size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            {t('languages.texts_key')}: <Code>{row.key}</Code>
          </Text>
          <Stack gap={2}>
            <Text size="sm" fw={500}>
              {t('languages.texts_catalogue')}
            </Text>
            <Text size="sm" data-testid="languages-edit-catalogue">
              {row.catalogue}
            </Text>
          </Stack>
          <Textarea
            label={t('languages.texts_own')}
            description={
              expected.length ? t('languages.texts_placeholders', { list: expected.join(' ') }) : undefined
            }
            autosize
            minRows={2}
            maxRows={8}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={fieldError ? translateMessage(t, fieldError) : undefined}
            data-autofocus
            data-testid="languages-edit-value"
          />
          {missing.length > 0 && (
            <Text size="sm" c="orange.9" data-testid="languages-edit-missing">
              {t('languages.texts_placeholders_missing', { list: missing.join(' ') })}
            </Text>
          )}
          {otherError && (
            <Alert color="red" role="alert">
              {otherError}
            </Alert>
          )}
          <Group justify="space-between">
            {row.own !== null ? (
              <Button
                variant="subtle"
                color="red"
                onClick={() => reset.mutate()}
                loading={reset.isPending}
                data-testid="languages-edit-reset"
              >
                {t('languages.texts_reset')}
              </Button>
            ) : (
              <span />
            )}
            <Group>
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="languages-edit-save">
                {t('admin.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
