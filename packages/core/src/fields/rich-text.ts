// The one whitelist of rich text (textarea) markup: the server stores only this, the browser shows
// only this (list mode shows fewer tags and no style).
/** Tags shown from rich text; list mode shows fewer and never a style attribute. */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'strike',
  'sub',
  'sup',
  'span',
  'div',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'pre',
  'code',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
  'hr',
  'font',
] as const;
export const RICH_TEXT_LIST_TAGS = [
  'p',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'a',
] as const;
export const RICH_TEXT_ATTRIBUTES = [
  'href',
  'target',
  'rel',
  'src',
  'alt',
  'style',
  'colspan',
  'rowspan',
  'size',
  'color',
];
export const RICH_TEXT_LIST_ATTRIBUTES = ['href', 'target', 'rel'];

// Addresses in rich text, one rule for the server's sanitiser and the browser's. Showing a text must
// never make a request on the reader's behalf to another site (it would learn who reads, and when)
// or to another path of the app: an image is inline data of a raster type or a file of the product.
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/]+={0,2}$/i;
const PRODUCT_FILE = /^\/api\/file\/([1-9][0-9]{0,9})\/download$/;
const MAX_FILE_ID = 2_147_483_647;
const LINK_TARGET = /^(?:https?:\/\/|mailto:|tel:)/i;
// CSS that loads something (url(), image-set(), @import, old IE expression()); a backslash could
// spell any of them as an escape.
const STYLE_REQUEST = /url\s*\(|image-set\s*\(|expression\s*\(|@import|\\/i;

/** The file id of an image source that is exactly `/api/file/{id}/download`, else null. */
export function imageFileId(src: string): number | null {
  const match = PRODUCT_FILE.exec(src);
  const id = match ? Number(match[1]) : 0;
  return id >= 1 && id <= MAX_FILE_ID ? id : null;
}

/** An image source a rich text may hold: a base64 PNG, JPEG, GIF or WebP data URL, or a product file. */
export function isAllowedImageSource(src: string): boolean {
  return DATA_IMAGE.test(src) || imageFileId(src) !== null;
}

/** A link target a rich text may hold: absolute http(s), mailto or tel; never a path into the app. */
export function isAllowedLinkTarget(href: string): boolean {
  return LINK_TARGET.test(href);
}

/** An inline style a rich text may hold: nothing in it loads a resource. */
export function isAllowedInlineStyle(style: string): boolean {
  return !STYLE_REQUEST.test(style);
}
