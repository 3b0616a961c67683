import type { EnvironmentText } from '@dossierbase/core';
import { catalogues, i18n } from './index';

/**
 * The environment's own wording of interface texts over the catalogue of `language`: the catalogue as
 * written first (what another environment changed is gone), then the texts in their order (a locale's
 * own after its language's, as the server sends them).
 */
export function applyEnvironmentTexts(language: string, texts: readonly EnvironmentText[]): void {
  const catalogue = catalogues[language];
  if (!catalogue) return;
  i18n.addResourceBundle(language, 'translation', structuredClone(catalogue), true, true);
  if (texts.length > 0)
    i18n.addResources(
      language,
      'translation',
      Object.fromEntries(texts.map((text) => [text.key, text.value])),
    );
}
