import { describe, expect, it } from 'vitest';
import de from './de.json';
import { i18n, LANGUAGES, loadCatalogue, showLanguage } from './index';

describe('catalogues loaded when a language is first shown', () => {
  it('starts with English only and loads a language on its first switch', async () => {
    expect(LANGUAGES).toEqual(['en', 'nl', 'es', 'fr', 'de', 'ru']);
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(false);
    await showLanguage('de');
    expect(i18n.language).toBe('de');
    expect(i18n.t('common.cancel')).toBe(de.common.cancel);
    // the catalogue as written is one object, loaded once
    expect(await loadCatalogue('de')).toBe(await loadCatalogue('de'));
  });

  it('shows the later of two quick switches, whichever catalogue arrives first', async () => {
    const first = showLanguage('ru');
    const second = showLanguage('en');
    await Promise.all([first, second]);
    expect(i18n.language).toBe('en');
  });

  it('refuses a language without a catalogue and stays in the one shown', async () => {
    await expect(showLanguage('xx')).rejects.toThrow("There is no catalogue for the language 'xx'");
    expect(i18n.language).toBe('en');
  });
});
