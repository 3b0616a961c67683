import { RICH_TEXT_TAGS } from '@dossierbase/core';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '../db/database';
import { imageFileIds, keepAllowedAddresses } from './addresses';

// Rich text (textarea) values: the shared whitelist of core, enforced when saving.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: ['href'], span: ['style'], img: ['src', 'alt', 'width', 'height'] },
  // Images are raster data URLs or product files, links absolute (core's rules, applied by the
  // transform); the schemes here only let those through sanitize-html's own check.
  allowedSchemesByTag: { img: ['data'] },
  allowProtocolRelative: false,
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedStyles: {
    span: {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
      'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
      'font-size': [/^\d{1,2}(\.\d+)?(pt|px|em|rem|%)$/],
      'font-family': [/^[\w\s,'"-]+$/],
    },
  },
};

/**
 * Cleans a rich text value. With `fileIds`, images of product files keep their source only for those
 * files (the caller passes the files of the text's environment).
 */
export const sanitiseRichText = (html: string, fileIds?: ReadonlySet<number>) =>
  sanitizeHtml(html, { ...OPTIONS, transformTags: { '*': keepAllowedAddresses(fileIds) } });

/** A rich text value as stored: cleaned, and images only of files of its own environment. */
export async function sanitiseStoredRichText(db: Db, environmentId: number, html: string) {
  const clean = sanitiseRichText(html);
  const ids = imageFileIds(clean);
  if (ids.length === 0) return clean;
  const own = await db
    .selectFrom('file')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where('id', 'in', ids)
    .execute();
  return own.length === ids.length ? clean : sanitiseRichText(clean, new Set(own.map((row) => row.id)));
}
