// The page a user asked for before signing in, opened after it. Only a path of this site is ever
// followed (never an open redirect), and never a sign-in page, which would lead back to itself.

const SIGN_IN_PAGES = /^\/(?:login|forgot_password|reset_password|azure)(?:\/|$)/;

const hasControlCharacter = (text: string) =>
  [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** `path` as a same-origin relative path (path, query and hash), or null when it is anything else. */
export function safeReturnPath(path: unknown, origin: string): string | null {
  if (typeof path !== 'string' || !path.startsWith('/')) return null;
  // '//host' and '/\host' are other sites to a browser; URL parsers drop tabs and line breaks, which
  // could make either out of what looked like a path.
  if (path.startsWith('//') || path.includes('\\') || hasControlCharacter(path)) return null;
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || SIGN_IN_PAGES.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
