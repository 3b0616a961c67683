import {
  ENVIRONMENT_MESSAGES,
  ENVIRONMENT_MODULES,
  type Environment,
  type EnvironmentModule,
  MAX_LOGO_BYTES,
} from '@dossierbase/core';
import {
  Alert,
  Anchor,
  Button,
  ColorInput,
  FileInput,
  Group,
  Image,
  MultiSelect,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, apiRequest } from '../../api/client';
import { callErrors, notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { translateMessage } from '../../i18n/messages';
import { environmentSetting, environmentStore, useEnvironment } from '../environments/environment-store';
import { readAsDataUrl } from '../environments/new-environment-modal';
import { entityName, useEntities } from './admin-api';
import { AdminOnly } from './admin-guard';

// The environment's own settings (issue 16, part 5): /environment/edit (name, description, help
// contact, on or off), /layout (logo and accent colour of the shell) and /modules.

type Patch = Partial<{
  name: string;
  description: string;
  help_contact: string;
  active: boolean;
  color: string | null;
  image: string | null;
}>;

/** Saves a change of the environment and puts the answer in the store, so the shell shows it at once. */
function useEnvironmentSave<V>(request: (environment: number, variables: V) => Promise<Environment>) {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const mutation = useMutation({
    mutationFn: (variables: V) => request(environment?.id ?? 0, variables),
    onSuccess: (saved) => {
      const current = environmentStore.get();
      if (current) environmentStore.set({ ...current, ...saved });
      notifySuccess(t('admin.saved'));
    },
  });
  return { mutation, ...callErrors(mutation.error, t) };
}

const patchEnvironment = (id: number, patch: Patch) => api.patch<Environment>(`/environment/${id}`, patch);

function SettingsPage({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <AdminOnly>
      <Stack maw={720} data-testid={testId}>
        <Title order={1} size="h3">
          {title}
        </Title>
        {children}
      </Stack>
    </AdminOnly>
  );
}

export function EnvironmentEditPage() {
  const { t } = useTranslation();
  return (
    <SettingsPage title={t('admin.environment.title')} testId="environment-edit-page">
      <EnvironmentForm />
      <Anchor component={Link} to="/layout" data-testid="environment-layout-link">
        {t('admin.environment.layout_link')}
      </Anchor>
    </SettingsPage>
  );
}

function EnvironmentForm() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const [values, setValues] = useState({
    name: environment?.name ?? '',
    description: environment?.description ?? '',
    help_contact: environmentSetting(environment, 'help_contact') ?? '',
    active: environment?.active ?? true,
  });
  const { mutation, fieldError, formError } = useEnvironmentSave(patchEnvironment);
  const canSwitchActive = environment?.abilities?.canSwitchActive ?? false;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { active, ...rest } = values;
    mutation.mutate(canSwitchActive ? values : rest);
  };
  const set = (name: keyof typeof values) => (value: string | boolean) =>
    setValues((current) => ({ ...current, [name]: value }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {formError && <Alert color="red">{formError}</Alert>}
        <TextInput
          label={t('admin.environment.name')}
          required
          value={values.name}
          onChange={(event) => set('name')(event.currentTarget.value)}
          error={fieldError('name')}
          data-testid="environment-name"
        />
        <Textarea
          label={t('admin.environment.description')}
          required
          autosize
          minRows={3}
          value={values.description}
          onChange={(event) => set('description')(event.currentTarget.value)}
          error={fieldError('description')}
          data-testid="environment-description"
        />
        <TextInput
          label={t('admin.environment.help_contact')}
          description={t('admin.environment.help_contact_hint')}
          value={values.help_contact}
          onChange={(event) => set('help_contact')(event.currentTarget.value)}
          error={fieldError('help_contact')}
          data-testid="environment-help-contact"
        />
        {canSwitchActive && (
          <Switch
            label={t('admin.environment.active')}
            description={t('admin.environment.active_hint')}
            checked={values.active}
            onChange={(event) => set('active')(event.currentTarget.checked)}
            data-testid="environment-active"
          />
        )}
        <Group>
          <Button type="submit" loading={mutation.isPending} data-testid="environment-save">
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Accent colours to pick from (any #rrggbb can be typed). */
const ACCENT_SWATCHES = ['#1c3b6b', '#1a7f37', '#8a1538', '#9a4a00', '#5b2a86', '#006d77', '#495057'];

export function LayoutPage() {
  const { t } = useTranslation();
  return (
    <SettingsPage title={t('admin.layout.title')} testId="layout-page">
      <LayoutForm />
    </SettingsPage>
  );
}

function LayoutForm() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const [color, setColor] = useState(environmentSetting(environment, 'color') ?? '');
  const [logoError, setLogoError] = useState<string | null>(null);
  const { mutation, fieldError, formError } = useEnvironmentSave(patchEnvironment);
  const chooseLogo = async (file: File | null) => {
    setLogoError(null);
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type))
      return setLogoError(translateMessage(t, ENVIRONMENT_MESSAGES.imageType));
    if (file.size > MAX_LOGO_BYTES) return setLogoError(t('environment.image_too_large'));
    mutation.mutate({ image: await readAsDataUrl(file) });
  };
  return (
    <Stack>
      {formError && <Alert color="red">{formError}</Alert>}
      <Paper withBorder p="md">
        <Stack>
          <Text fw={500}>{t('admin.layout.logo')}</Text>
          {environment?.logo ? (
            <Image src={environment.logo} alt={t('admin.layout.logo_alt')} h={64} w="auto" fit="contain" />
          ) : (
            <Text c="dimmed" size="sm">
              {t('admin.layout.no_logo')}
            </Text>
          )}
          <Group align="flex-end">
            <FileInput
              label={t('admin.layout.choose_logo')}
              accept="image/png,image/jpeg"
              onChange={(file) => void chooseLogo(file)}
              error={logoError ?? fieldError('image')}
              clearable={false}
              data-testid="layout-logo"
            />
            {environment?.logo && (
              <Button
                variant="default"
                onClick={() => mutation.mutate({ image: null })}
                data-testid="layout-logo-remove"
              >
                {t('admin.layout.remove_logo')}
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            mutation.mutate({ color: color.trim() === '' ? null : color.trim() });
          }}
          noValidate
        >
          <Stack>
            <ColorInput
              label={t('admin.layout.color')}
              description={t('admin.layout.color_hint')}
              format="hex"
              // typed, or picked from swatches: the picker's sliders cannot be named (Mantine does not
              // pass their labels on) and are mouse-only
              withPicker={false}
              swatches={ACCENT_SWATCHES}
              value={color}
              onChange={setColor}
              error={fieldError('color')}
              data-testid="layout-color"
            />
            <Group>
              <Button type="submit" loading={mutation.isPending} data-testid="layout-save">
                {t('admin.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

export function ModulesPage() {
  const { t } = useTranslation();
  return (
    <SettingsPage title={t('admin.modules.title')} testId="modules-page">
      <ModuleList />
    </SettingsPage>
  );
}

interface ModuleChange {
  name: EnvironmentModule;
  enabled: boolean;
  entities?: number[];
}

const moduleEntities = (environment: Environment | null, name: string): string[] => {
  const modules = (environment?.settings?.modules ?? {}) as Record<string, { entities?: number[] }>;
  return (modules[name]?.entities ?? []).map(String);
};

function ModuleList() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const environment = useEnvironment();
  const { data: entities } = useEntities();
  const { mutation, fieldError, formError } = useEnvironmentSave((id: number, change: ModuleChange) =>
    apiRequest<Environment>(`/environment/${id}/module/${change.name}`, {
      method: 'PUT',
      body: { enabled: change.enabled, entities: change.entities },
    }),
  );
  const enabled = new Set(environment?.env_modules ?? []);
  return (
    <Stack>
      {formError && <Alert color="red">{formError}</Alert>}
      {ENVIRONMENT_MODULES.map((name) => (
        <Paper key={name} withBorder p="md" data-testid={`module-${name}`}>
          <Stack gap="xs">
            <Switch
              label={t(`admin.modules.names.${name}`)}
              description={t(`admin.modules.descriptions.${name}`)}
              checked={enabled.has(name)}
              disabled={mutation.isPending}
              onChange={(event) => mutation.mutate({ name, enabled: event.currentTarget.checked })}
              data-testid={`module-${name}-switch`}
            />
            {name === 'secureshare' && enabled.has(name) && (
              <MultiSelect
                label={t('admin.modules.entities')}
                data={(entities ?? []).map((entity) => ({
                  value: String(entity.id),
                  label: entityName(entity, locale),
                }))}
                value={moduleEntities(environment, name)}
                onChange={(ids) => mutation.mutate({ name, enabled: true, entities: ids.map(Number) })}
                error={fieldError('entities')}
                searchable
                data-testid="module-secureshare-entities"
              />
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
