import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { useTokenData } from '../features/auth/session';
import { useEnvironment } from '../features/environments/environment-store';
import { getEnvironmentTexts } from '../features/environments/environments-api';
import { i18n, showLanguage } from '../i18n';
import { applyEnvironmentTexts } from '../i18n/environment-texts';
import { STORAGE_KEYS } from './local-store';
import { availableLocales, browserLocale, LOCALE_NAMES, languageOf, resolveLocale } from './locale';
import { LocaleFlag } from './locale-flag';

interface LocaleContextValue {
  locale: string | null;
  available: string[];
  setLocale: (locale: string) => void;
}

const LocaleContext = createContext<LocaleContextValue>({ locale: null, available: [], setLocale: () => {} });

export function useLocale(): LocaleContextValue {
  return useContext(LocaleContext);
}

export function LocaleProvider({ children }: { children: ReactNode }) {
  const environment = useEnvironment();
  const [stored, setStored] = useState(() => localStorage.getItem(STORAGE_KEYS.locale));
  const available = useMemo(() => availableLocales(environment), [environment]);
  const locale = resolveLocale(available, stored, browserLocale(navigator.language));

  useEffect(() => {
    if (!locale) return;
    const language = languageOf(locale);
    // the document's language follows what is shown (a catalogue that cannot load leaves it as it is)
    void showLanguage(language).then(
      () => {
        document.documentElement.lang = i18n.language;
      },
      () => undefined,
    );
  }, [locale]);
  useEnvironmentTexts(environment?.id ?? null, locale);

  const value = useMemo<LocaleContextValue>(
    () => ({
      locale,
      available,
      setLocale: (next) => {
        localStorage.setItem(STORAGE_KEYS.locale, next);
        setStored(next);
      },
    }),
    [locale, available],
  );

  return (
    <LocaleContext.Provider value={value}>
      {children}
      <LocaleRequiredModal />
    </LocaleContext.Provider>
  );
}

/**
 * The chosen environment's own wording of interface texts, over the catalogue of the locale's
 * language; again whenever the environment or the locale changes. Until they are read (and without
 * an environment) the catalogue's texts show, never another environment's.
 */
function useEnvironmentTexts(environmentId: number | null, locale: string | null) {
  const signedIn = useTokenData() !== null;
  const enabled = signedIn && environmentId !== null && locale !== null;
  const { data } = useQuery({
    queryKey: queryKeys.environmentTexts(environmentId, locale),
    queryFn: ({ signal }) => getEnvironmentTexts(Number(environmentId), String(locale), signal),
    enabled,
  });
  const texts = enabled ? data?.results : undefined;
  useEffect(() => {
    if (locale) void applyEnvironmentTexts(languageOf(locale), texts ?? []).catch(() => undefined);
  }, [locale, texts]);
}

// Blocking: shown when neither the browser language nor the chosen locale is available.
function LocaleRequiredModal() {
  const { t } = useTranslation();
  const { locale, available, setLocale } = useLocale();
  return (
    <Modal
      opened={locale === null}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={t('locale.choose_title')}
      data-testid="locale-modal"
      centered
    >
      <Stack>
        <Text size="sm">{t('locale.choose_text')}</Text>
        <Group>
          {available.map((code) => (
            <Button
              key={code}
              variant="light"
              leftSection={<LocaleFlag locale={code} />}
              onClick={() => setLocale(code)}
              data-testid={`locale-option-${code}`}
            >
              {LOCALE_NAMES[code] ?? code}
            </Button>
          ))}
        </Group>
      </Stack>
    </Modal>
  );
}
