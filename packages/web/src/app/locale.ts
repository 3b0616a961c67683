import type { Environment } from '@dossierbase/core';

export const ALL_LOCALES = ['nl_NL', 'en_GB', 'fr_FR', 'es_ES', 'es_CO', 'de_DE', 'ru_RU'] as const;

const BROWSER_LOCALES: Record<string, string> = {
  nl: 'nl_NL',
  es: 'es_ES',
  en: 'en_GB',
  ru: 'ru_RU',
  de: 'de_DE',
  fr: 'fr_FR',
};

export const LOCALE_NAMES: Record<string, string> = {
  nl_NL: 'Nederlands',
  en_GB: 'English',
  fr_FR: 'Français',
  es_ES: 'Español',
  es_CO: 'Español (Colombia)',
  de_DE: 'Deutsch',
  ru_RU: 'Русский',
};

export function availableLocales(environment: Pick<Environment, 'locales'> | null): string[] {
  const codes = environment?.locales?.map((locale) => locale.code) ?? [];
  // An environment without locales would leave nothing to pick; offer all then.
  return codes.length > 0 ? codes : [...ALL_LOCALES];
}

export function browserLocale(language: string | undefined): string | null {
  return BROWSER_LOCALES[(language ?? '').slice(0, 2).toLowerCase()] ?? null;
}

/**
 * Spec order: a manual choice that is available, else the exact browser match, else the only
 * available locale, else nl_NL, else en_GB. Null means the user must pick one (blocking modal):
 * also when a manual choice exists but neither it nor the browser language is available.
 */
export function resolveLocale(
  available: string[],
  stored: string | null,
  browser: string | null,
): string | null {
  if (stored && available.includes(stored)) return stored;
  if (browser && available.includes(browser)) return browser;
  if (available.length === 1) return available[0];
  if (stored) return null;
  if (available.includes('nl_NL')) return 'nl_NL';
  if (available.includes('en_GB')) return 'en_GB';
  return null;
}

export function languageOf(locale: string): string {
  return locale.slice(0, 2);
}
