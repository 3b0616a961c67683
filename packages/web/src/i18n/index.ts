import type { Catalogue } from '@dossierbase/core';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '../app/local-store';
import { availableLocales, browserLocale, languageOf, resolveLocale } from '../app/locale';
import en from './en.json';

/**
 * The catalogue of each language as written. English is part of the first load: it is every text's
 * fallback. The other five are loaded when first shown, so a first visit does not fetch and parse
 * 450 KB of languages it may never use.
 */
const laterCatalogues: Readonly<Record<string, () => Promise<{ default: Catalogue }>>> = {
  nl: () => import('./nl.json'),
  es: () => import('./es.json'),
  fr: () => import('./fr.json'),
  de: () => import('./de.json'),
  ru: () => import('./ru.json'),
};

export const LANGUAGES = ['en', ...Object.keys(laterCatalogues)];

const catalogues = new Map<string, Promise<Catalogue>>([['en', Promise.resolve(en)]]);

/**
 * The catalogue of `language` as written, loaded once. i18next is given a copy, which an
 * environment's own texts change (environment-texts.ts). A load that failed (the network) is tried
 * again by the next call.
 */
export function loadCatalogue(language: string): Promise<Catalogue> {
  const known = catalogues.get(language);
  if (known) return known;
  const load = laterCatalogues[language];
  if (!load) return Promise.reject(new Error(`There is no catalogue for the language '${language}'`));
  const loading = load().then(({ default: catalogue }) => {
    if (!i18n.hasResourceBundle(language, 'translation'))
      i18n.addResourceBundle(language, 'translation', structuredClone(catalogue));
    return catalogue;
  });
  catalogues.set(language, loading);
  loading.catch(() => catalogues.delete(language));
  return loading;
}

let shownLanguage: string | null = null;

/**
 * Shows the interface in `language` once its catalogue is loaded. Of two switches in quick
 * succession the later one wins, whichever catalogue arrives first. A catalogue that cannot be
 * loaded leaves the interface in the language it is in.
 */
export async function showLanguage(language: string): Promise<void> {
  shownLanguage = language;
  await loadCatalogue(language);
  if (shownLanguage === language && i18n.language !== language) await i18n.changeLanguage(language);
}

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
  resources: { en: { translation: structuredClone(en) } },
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  // texts changed in place (environment-texts.ts) and catalogues loaded later show at once
  react: { bindI18nStore: 'added' },
});

/** Settled once the first language's catalogue is in (or could not be loaded): main.tsx renders then. */
export const i18nReady: Promise<void> = showLanguage(initialLanguage()).catch(() => undefined);

export { i18n };
