import type { EnvironmentText } from '@dossierbase/core';
import { i18n, LANGUAGES, loadCatalogue } from './index';

/**
 * The environment's own wording of interface texts over the catalogue of `language`: the catalogue as
 * written first (what another environment changed is gone), then the texts in their order (a locale's
 * own after its language's, as the server sends them). Calls for one language take effect in the
 * order they were made, also while its catalogue is still loading.
 */
export async function applyEnvironmentTexts(
  language: string,
  texts: readonly EnvironmentText[],
): Promise<void> {
  if (!LANGUAGES.includes(language)) return;
  const catalogue = await loadCatalogue(language);
  i18n.addResourceBundle(language, 'translation', structuredClone(catalogue), true, true);
  if (texts.length > 0)
    i18n.addResources(
      language,
      'translation',
      Object.fromEntries(texts.map((text) => [text.key, text.value])),
    );
}
