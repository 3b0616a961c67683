import { RICH_TEXT_TAGS } from '@dossierbase/core';
import sanitizeHtml from 'sanitize-html';

// Rich text (textarea) values: the shared whitelist of core, enforced when saving.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: { a: ['href'], span: ['style'], img: ['src', 'alt', 'width', 'height'] },
  // Images only from web addresses or inline data, never relative paths into the app.
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
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

export const sanitiseRichText = (html: string) => sanitizeHtml(html, OPTIONS);
