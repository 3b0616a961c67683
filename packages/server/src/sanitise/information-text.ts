import { INFORMATION_TEXT_ATTRIBUTES, INFORMATION_TEXT_TAGS } from '@dossierbase/core';
import sanitizeHtml from 'sanitize-html';
import { keepAllowedAddresses } from './addresses';

// Images are raster data URLs or product files (core's rule, applied by the transform). The source is
// checked by its path only: an image is fetched by GET, which changes nothing, and the download
// answers only a reader of the file's environment, so another environment's id shows no image.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: INFORMATION_TEXT_TAGS,
  allowedAttributes: { '*': INFORMATION_TEXT_ATTRIBUTES },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  // Only to let an inline image's data URL through sanitize-html's own check.
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  transformTags: { '*': keepAllowedAddresses() },
};

/** Information text and pre-text keep only the tags and attributes the spec allows. */
export const sanitiseInformationText = (html: string) => sanitizeHtml(html, OPTIONS);

interface TextSettings {
  informationtext?: string;
  pretext?: string;
}

/** Cleans the information text and pre-text of every translation, leaving the rest as it is. */
export function sanitiseTranslationTexts<T extends { settings?: TextSettings }>(
  translations: readonly T[],
): T[] {
  return translations.map((translation) => {
    if (!translation.settings) return translation;
    const settings: TextSettings = {};
    for (const key of ['informationtext', 'pretext'] as const) {
      const value = translation.settings[key];
      if (value !== undefined) settings[key] = sanitiseInformationText(value);
    }
    return { ...translation, settings };
  });
}
