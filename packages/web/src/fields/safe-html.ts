import {
  INFORMATION_TEXT_ATTRIBUTES,
  INFORMATION_TEXT_TAGS,
  isAllowedImageSource,
  isAllowedInlineStyle,
  isAllowedLinkTarget,
} from '@dossierbase/core';
import DOMPurify from 'dompurify';

// A DOMPurify of our own, so these hooks touch no other use of the library. It applies core's rules
// for rich text (the server's sanitiser applies the same): an image is a raster data URL or a file of
// the product, a link is absolute http(s), mailto or tel, and no style loads anything. Showing a text
// then never makes a request on the reader's behalf. The hook sees values after the browser decoded
// the markup, so entity-encoded paths are caught too.
const purifier = DOMPurify(typeof window === 'undefined' ? undefined : window);
const RULES = new Map<string, (value: string) => boolean>([
  ['src', isAllowedImageSource],
  ['href', isAllowedLinkTarget],
  ['style', isAllowedInlineStyle],
]);
purifier.addHook?.('uponSanitizeAttribute', (_node, data) => {
  const allowed = RULES.get(data.attrName);
  if (allowed && !allowed(data.attrValue)) data.keepAttr = false;
});

/** Markup reduced to the given tags and attributes, with core's rules for addresses and styles. */
export function sanitiseHtml(html: string, tags: readonly string[], attributes: readonly string[]): string {
  // Without a DOM (unit tests under Node) DOMPurify checks nothing, so nothing is shown.
  if (!purifier.isSupported) return '';
  return purifier.sanitize(html, { ALLOWED_TAGS: [...tags], ALLOWED_ATTR: [...attributes] });
}

/** Information text and pre-text of a display item: only the contract's tags and attributes. */
export function sanitiseInformationText(html: string): string {
  return sanitiseHtml(html, INFORMATION_TEXT_TAGS, INFORMATION_TEXT_ATTRIBUTES);
}
