import { PRESENCES, PROFILE_LOCALES, type Profile, profilePatchSchema } from '@dossierbase/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Grid, Group, Paper, Stack, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyFieldErrors, notifyError, notifySuccess } from '../../api/errors';
import { LOCALE_NAMES } from '../../app/locale';
import { useLocale } from '../../app/locale-provider';
import { FormSelect, FormTextInput } from '../admin/form-controls';
import { saveProfile, useProfileChange } from './people-api';

type Values = z.input<typeof profilePatchSchema>;
type Saved = z.output<typeof profilePatchSchema>;

/** First name, preposition and last name side by side: columns of the 12 and what browsers fill in. */
const NAME_FIELDS = [
  { name: 'first_name', span: 4, autoComplete: 'given-name' },
  { name: 'preposition', span: 3, autoComplete: 'off' },
  { name: 'last_name', span: 5, autoComplete: 'family-name' },
] as const;

/** The form's values; a user who chose no language yet sees the one the interface speaks. */
const valuesOf = (profile: Profile, shown: string | null): Values => ({
  first_name: profile.first_name ?? '',
  preposition: profile.preposition ?? '',
  last_name: profile.last_name ?? '',
  email: profile.email ?? '',
  mobile: profile.mobile ?? '',
  locale: PROFILE_LOCALES.find((code) => code === (profile.locale ?? shown)) ?? null,
  private_settings: { presence: profile.private_settings.presence ?? 'online' },
});

/** The own name, e-mail, mobile, language and presence; checked with the server's own schema. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const { locale, available, setLocale } = useLocale();
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(profilePatchSchema),
    defaultValues: valuesOf(profile, locale),
  });
  const { control } = form;
  const save = useProfileChange(saveProfile);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill only when another profile is shown
  useEffect(() => form.reset(valuesOf(profile, locale)), [profile.id]);

  const chosenLocale = form.watch('locale');
  const submit = form.handleSubmit(async (values) => {
    // only what the user changed: the presence may have been changed in the user menu meanwhile
    const { dirtyFields } = form.formState;
    const changed = Object.fromEntries(
      Object.entries(values).filter(([field]) => dirtyFields[field as keyof Values]),
    );
    try {
      const saved = await save.mutateAsync(changed);
      form.reset(valuesOf(saved, locale));
      // the interface follows the chosen language where this environment offers it
      if (saved.locale && available.includes(saved.locale)) setLocale(saved.locale);
      notifySuccess(t('profile.saved'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, t)) notifyError(error, t);
    }
  });

  return (
    <Paper withBorder p="lg">
      <form onSubmit={submit} noValidate data-testid="profile-form">
        <Stack>
          <Title order={2} size="h4">
            {t('profile.details')}
          </Title>
          <Grid>
            {NAME_FIELDS.map(({ name, span, autoComplete }) => (
              <Grid.Col key={name} span={{ base: 12, sm: span }}>
                <FormTextInput
                  control={control}
                  name={name}
                  label={t(`profile.${name}`)}
                  autoComplete={autoComplete}
                  data-testid={`profile-${name.replace('_', '-')}`}
                />
              </Grid.Col>
            ))}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <FormTextInput
                control={control}
                name="email"
                type="email"
                label={t('profile.email')}
                withAsterisk
                autoComplete="email"
                data-testid="profile-email"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <FormTextInput
                control={control}
                name="mobile"
                type="tel"
                label={t('profile.mobile')}
                description={t('profile.mobile_hint')}
                autoComplete="tel"
                data-testid="profile-mobile"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <FormSelect
                control={control}
                name="locale"
                label={t('profile.language')}
                data={PROFILE_LOCALES.map((code) => ({ value: code, label: LOCALE_NAMES[code] }))}
                description={
                  chosenLocale && !available.includes(chosenLocale)
                    ? t('profile.language_unavailable')
                    : undefined
                }
                data-testid="profile-language"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <FormSelect
                control={control}
                name="private_settings.presence"
                label={t('profile.presence')}
                allowDeselect={false}
                data={PRESENCES.map((presence) => ({ value: presence, label: t(`presence.${presence}`) }))}
                data-testid="profile-presence"
              />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="profile-save">
              {t('profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
