import {
  ENVIRONMENT_MESSAGES,
  environmentCreateSchema,
  MAX_LOGO_BYTES,
  type TemplateSummary,
} from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Card,
  Center,
  Checkbox,
  FileInput,
  Group,
  Image,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconPhoto, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isApiError } from '../../api/client';
import { applyFieldErrors, notifyError, notifySuccess } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import { useLocale } from '../../app/locale-provider';
import { AnswerPager } from '../../app/pager';
import { translateMessage } from '../../i18n/messages';
import { addEnvironmentLocale, createEnvironment, listLocales, listTemplates } from './environments-api';

const TEMPLATE_PAGE_SIZE = 9;

const newEnvironmentSchema = environmentCreateSchema.extend({
  languages: z.array(z.string()).min(1, ENVIRONMENT_MESSAGES.languageRequired),
});
type NewEnvironmentInput = z.input<typeof newEnvironmentSchema>;
type NewEnvironmentValues = z.output<typeof newEnvironmentSchema>;
type Tab = 'generic' | 'languages' | 'templates' | 'misc';

const DEFAULT_VALUES: NewEnvironmentInput = {
  name: '',
  description: '',
  image: null,
  template: null,
  languages: [],
};

function firstTabWithError(errors: FieldErrors<NewEnvironmentInput>): Tab | null {
  if (errors.name || errors.description || errors.image) return 'generic';
  if (errors.languages) return 'languages';
  if (errors.template) return 'templates';
  return null;
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function templateName(template: TemplateSummary, locale: string | null): string {
  const language = locale?.slice(0, 2);
  const match =
    template.translations?.find((tr) => tr.culture === locale) ??
    template.translations?.find((tr) => tr.culture.slice(0, 2) === language);
  return match?.name || template.name;
}

export function NewEnvironmentModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('generic');
  const [alert, setAlert] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [templateLabel, setTemplateLabel] = useState<string | null>(null);
  // Survives a failed locale call so a retry does not create the environment twice.
  const created = useRef<{ id: number; codes: Set<string> } | null>(null);

  const form = useForm<NewEnvironmentInput, unknown, NewEnvironmentValues>({
    resolver: zodResolver(newEnvironmentSchema),
    defaultValues: DEFAULT_VALUES,
  });
  const { errors } = form.formState;
  const values = form.watch();

  const close = () => {
    form.reset(DEFAULT_VALUES);
    setTab('generic');
    setAlert(null);
    setFile(null);
    setTemplateLabel(null);
    created.current = null;
    onClose();
  };

  const onImage = async (next: File | null) => {
    setFile(next);
    form.clearErrors('image');
    if (!next) {
      form.setValue('image', null);
      return;
    }
    if (!['image/png', 'image/jpeg'].includes(next.type)) {
      form.setError('image', { message: ENVIRONMENT_MESSAGES.imageType });
      form.setValue('image', null);
      return;
    }
    if (next.size > MAX_LOGO_BYTES) {
      form.setError('image', { message: t('environment.image_too_large') });
      form.setValue('image', null);
      return;
    }
    form.setValue('image', await readAsDataUrl(next));
  };

  const submit = form.handleSubmit(
    async (data) => {
      setAlert(null);
      try {
        if (!created.current) {
          const environment = await createEnvironment({
            name: data.name,
            description: data.description,
            image: data.image ?? null,
            template: data.template ?? null,
          });
          created.current = { id: environment.id, codes: new Set() };
        }
        const target = created.current;
        for (const code of data.languages) {
          if (target.codes.has(code)) continue;
          await addEnvironmentLocale(target.id, code);
          target.codes.add(code);
        }
        await queryClient.invalidateQueries({ queryKey: queryKeys.environmentList });
        notifySuccess(t('environment.created'));
        close();
      } catch (error) {
        if (isApiError(error, 403)) {
          setAlert(t('environment.limit_reached'));
        } else if (
          applyFieldErrors(error, form.setError, t, {
            code: 'languages',
            environment: 'languages',
            locale: 'languages',
          })
        ) {
          const fields = Object.keys((isApiError(error) && error.fieldErrors) || {});
          setTab(fields.some((f) => ['code', 'environment', 'locale'].includes(f)) ? 'languages' : 'generic');
        } else {
          notifyError(error, t);
        }
      }
    },
    (invalid) => {
      const target = firstTabWithError(invalid);
      if (target) setTab(target);
    },
  );

  const fieldError = (message?: string) => (message ? translateMessage(t, message) : undefined);

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('environment.new_title')}
      size="xl"
      centered
      closeOnClickOutside={false}
    >
      <form onSubmit={submit} noValidate data-testid="new-environment-modal">
        <Stack>
          {alert && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="new-environment-alert">
              {alert}
            </Alert>
          )}
          <Tabs value={tab} onChange={(value) => setTab((value as Tab) ?? 'generic')} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab
                value="generic"
                data-testid="new-environment-tab-generic"
                c={firstTabWithError(errors) === 'generic' ? 'red' : undefined}
              >
                {t('environment.tab_generic')}
              </Tabs.Tab>
              <Tabs.Tab
                value="languages"
                data-testid="new-environment-tab-languages"
                c={errors.languages ? 'red' : undefined}
              >
                {t('environment.tab_languages')}
              </Tabs.Tab>
              <Tabs.Tab value="templates" data-testid="new-environment-tab-templates">
                {t('environment.tab_templates')}
              </Tabs.Tab>
              <Tabs.Tab value="misc" data-testid="new-environment-tab-misc">
                {t('environment.tab_misc')}
              </Tabs.Tab>
            </Tabs.List>

            <Tabs.Panel value="generic" pt="md">
              <Stack>
                <TextInput
                  label={t('environment.name')}
                  withAsterisk
                  {...form.register('name')}
                  error={fieldError(errors.name?.message)}
                  data-testid="new-environment-name"
                />
                <Textarea
                  label={t('environment.description')}
                  withAsterisk
                  autosize
                  minRows={3}
                  {...form.register('description')}
                  error={fieldError(errors.description?.message)}
                  data-testid="new-environment-description"
                />
                <FileInput
                  label={t('environment.image')}
                  description={t('environment.image_hint')}
                  accept="image/png,image/jpeg"
                  clearable
                  leftSection={<IconPhoto size={16} />}
                  value={file}
                  onChange={(next) => void onImage(next)}
                  error={fieldError(errors.image?.message)}
                  data-testid="new-environment-image"
                />
                {values.image && <Image src={values.image} alt="" h={80} w="auto" fit="contain" />}
              </Stack>
            </Tabs.Panel>

            <Tabs.Panel value="languages" pt="md">
              <LanguagesTab
                value={values.languages ?? []}
                onChange={(next) =>
                  form.setValue('languages', next, { shouldValidate: form.formState.isSubmitted })
                }
                error={fieldError(errors.languages?.message)}
              />
            </Tabs.Panel>

            <Tabs.Panel value="templates" pt="md">
              <TemplatesTab
                enabled={opened}
                value={values.template ?? null}
                onChange={(id, label) => {
                  form.setValue('template', id);
                  setTemplateLabel(label);
                }}
              />
            </Tabs.Panel>

            <Tabs.Panel value="misc" pt="md">
              <Table variant="vertical" withTableBorder data-testid="new-environment-summary">
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={180}>{t('environment.name')}</Table.Th>
                    <Table.Td>{values.name || '-'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('environment.description')}</Table.Th>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{values.description || '-'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('environment.image')}</Table.Th>
                    <Table.Td>{file?.name ?? '-'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('environment.tab_languages')}</Table.Th>
                    <Table.Td>{values.languages?.length ? values.languages.join(', ') : '-'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('environment.template')}</Table.Th>
                    <Table.Td>{templateLabel ?? t('environment.no_template')}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Tabs.Panel>
          </Tabs>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="new-environment-submit">
              {t('environment.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function LanguagesTab({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const locales = useQuery({ queryKey: queryKeys.locales, queryFn: ({ signal }) => listLocales(signal) });
  if (locales.isPending) {
    return (
      <Center>
        <Loader size="sm" />
      </Center>
    );
  }
  if (locales.isError) return <Text c="red">{t('common.something_went_wrong')}</Text>;
  return (
    <Stack>
      <Checkbox.Group value={value} onChange={onChange} error={error} data-testid="new-environment-languages">
        <Stack gap="xs" mt="xs">
          {locales.data.results.map((locale) => (
            <Checkbox
              key={locale.code}
              value={locale.code}
              label={`${locale.name} (${locale.code})`}
              data-testid={`new-environment-language-${locale.code}`}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      {value.length === 0 && !error && (
        <Text size="sm" c="dimmed" data-testid="new-environment-language-hint">
          {t('environment.language_required')}
        </Text>
      )}
    </Stack>
  );
}

function TemplatesTab({
  enabled,
  value,
  onChange,
}: {
  enabled: boolean;
  value: number | null;
  onChange: (id: number | null, label: string | null) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(0);
  const params = { limit: TEMPLATE_PAGE_SIZE, page, name: debounced };
  const templates = useQuery({
    queryKey: queryKeys.templates(params),
    queryFn: ({ signal }) => listTemplates(params, signal),
    enabled,
    placeholderData: keepPreviousData,
  });

  return (
    <Stack>
      <TextInput
        placeholder={t('common.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        data-testid="new-environment-template-search"
      />
      <Checkbox
        label={t('environment.no_template')}
        checked={value === null}
        onChange={() => onChange(null, null)}
        data-testid="new-environment-template-none"
      />
      {templates.isPending ? (
        <Center>
          <Loader size="sm" />
        </Center>
      ) : templates.isError ? (
        <Text c="red">{t('common.something_went_wrong')}</Text>
      ) : templates.data.results.length === 0 ? (
        <Text c="dimmed" data-testid="new-environment-templates-empty">
          {t('environment.no_templates')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {templates.data.results.map((template) => {
            const name = templateName(template, locale);
            const selected = value === template.id;
            return (
              <Card
                key={template.id}
                withBorder
                padding="sm"
                style={{
                  cursor: 'pointer',
                  borderColor: selected ? 'var(--mantine-color-indigo-6)' : undefined,
                  borderWidth: selected ? 2 : undefined,
                }}
                onClick={() => (selected ? onChange(null, null) : onChange(template.id, name))}
                data-testid="new-environment-template"
                data-template-id={template.id}
                data-selected={selected}
              >
                <Text fw={600} size="sm">
                  {name}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {template.description}
                </Text>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      <AnswerPager pager={templates.data?.pager} page={page} onPage={setPage} size="sm" />
    </Stack>
  );
}
