import { describe, expect, it } from 'vitest';
import { ALL_LOCALES, availableLocales, browserLocale, languageOf, resolveLocale } from './locale';

describe('locale choice', () => {
  const all = [...ALL_LOCALES];

  it('maps browser languages', () => {
    expect(browserLocale('nl-BE')).toBe('nl_NL');
    expect(browserLocale('en-US')).toBe('en_GB');
    expect(browserLocale('de')).toBe('de_DE');
    expect(browserLocale('ja-JP')).toBeNull();
  });

  it('prefers an available manual choice, then the browser match', () => {
    expect(resolveLocale(all, 'fr_FR', 'en_GB')).toBe('fr_FR');
    expect(resolveLocale(all, null, 'de_DE')).toBe('de_DE');
  });

  it('falls back to the only locale, then nl_NL, then en_GB', () => {
    expect(resolveLocale(['ru_RU'], null, 'en_GB')).toBe('ru_RU');
    expect(resolveLocale(['en_GB', 'nl_NL'], null, null)).toBe('nl_NL');
    expect(resolveLocale(['fr_FR', 'en_GB'], null, 'de_DE')).toBe('en_GB');
  });

  it('asks the user when nothing fits', () => {
    expect(resolveLocale(['fr_FR', 'de_DE'], null, 'en_GB')).toBeNull();
    expect(resolveLocale(['nl_NL', 'en_GB'], 'fr_FR', 'de_DE')).toBeNull();
  });

  it('uses all locales before an environment is chosen', () => {
    expect(availableLocales(null)).toEqual(all);
    expect(availableLocales({ locales: [{ id: 1, code: 'es_CO', name: 'x' }] })).toEqual(['es_CO']);
    expect(languageOf('es_CO')).toBe('es');
  });
});
