import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_LIST_ATTRIBUTES,
  RICH_TEXT_LIST_TAGS,
  RICH_TEXT_TAGS,
} from '@dossierbase/core';
import { sanitiseHtml } from './safe-html';

// Rich text (textarea) markup in the browser: the one whitelist of core, for display and for what the
// editor emits.

/** Keeps only the whitelisted tags and attributes (list mode: fewer tags, no style). */
export function sanitiseRichText(html: string, listMode = false): string {
  return listMode
    ? sanitiseHtml(html, RICH_TEXT_LIST_TAGS, RICH_TEXT_LIST_ATTRIBUTES)
    : sanitiseHtml(html, RICH_TEXT_TAGS, RICH_TEXT_ATTRIBUTES);
}

/** Spec: font sizes 8 to 48 pt in the editor. */
export const RICH_TEXT_FONT_SIZES: readonly string[] = [
  8, 9, 10, 11, 12, 14, 16, 18, 20, 24, 28, 32, 36, 40, 48,
].map((n) => `${n}pt`);

/** Font families offered in the editor (web-safe stacks, so every browser shows them). */
export const RICH_TEXT_FONT_FAMILIES: readonly { label: string; value: string }[] = [
  { label: 'Arial', value: 'Arial, Helvetica, sans-serif' },
  { label: 'Georgia', value: 'Georgia, serif' },
  { label: 'Times New Roman', value: '"Times New Roman", Times, serif' },
  { label: 'Verdana', value: 'Verdana, Geneva, sans-serif' },
  { label: 'Courier New', value: '"Courier New", Courier, monospace' },
];

/** Link targets the editor accepts: http(s) and mailto (anything else would be refused on display). */
export const RICH_TEXT_LINK_PROTOCOLS = ['http', 'https', 'mailto'] as const;

/** Whether a link typed in the editor may be stored. */
export function isAllowedRichTextLink(href: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(href.trim());
}

/** What the editor emits: its HTML through the whitelist; an empty document becomes ''. */
export function richTextOutput(editorHtml: string): string {
  const clean = sanitiseRichText(editorHtml);
  return clean.replace(/<p><\/p>/g, '').trim() === '' ? '' : clean;
}
