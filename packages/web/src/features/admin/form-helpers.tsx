import { INFORMATION_TEXT_ATTRIBUTES, INFORMATION_TEXT_TAGS } from '@dossierbase/core';
import { sanitiseHtml } from '../../fields/safe-html';

/** Information text and pre-text may hold only the contract's tags and attributes. */
export function sanitiseInformation(html: string): string {
  return sanitiseHtml(html, INFORMATION_TEXT_TAGS, INFORMATION_TEXT_ATTRIBUTES);
}
