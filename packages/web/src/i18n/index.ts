import type { Catalogue } from '@dossierbase/core';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../app/local-store';
import { availableLocales, browserLocale, languageOf, resolveLocale } from '../app/locale';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import nl from './nl.json';
import ru from './ru.json';

/** The catalogues as written. i18next holds copies, which an environment's own texts change. */
export const catalogues: Readonly<Record<string, Catalogue>> = { en, nl, es, fr, de, ru };

export const LANGUAGES = Object.keys(catalogues);

const resources = Object.fromEntries(
  Object.entries(catalogues).map(([language, catalogue]) => [
    language,
    { translation: structuredClone(catalogue) },
  ]),
);

// Start in the language the locale provider will pick, so the first paint is not in the wrong language.
function initialLanguage(): string {
  try {
    const environment = JSON.parse(localStorage.getItem(STORAGE_KEYS.environment) ?? 'null');
    const locale = resolveLocale(
      availableLocales(environment),
      localStorage.getItem(STORAGE_KEYS.locale),
      browserLocale(navigator.language),
    );
    return locale ? languageOf(locale) : 'en';
  } catch {
    return 'en';
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // texts changed in place (environment-texts.ts) show at once
  react: { bindI18nStore: 'added' },
});

export { i18n };
