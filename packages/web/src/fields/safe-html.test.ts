// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { richTextOutput, sanitiseRichText } from './rich-text';
import { sanitiseInformationText } from './safe-html';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// The server's corpus (packages/server/src/sanitise/sanitise.test.ts): image sources that must never
// make the reader's browser ask for anything.
const HOSTILE_IMAGE_SOURCES = [
  '/api/contentdossier/17/archive',
  '/api/contentdossier/17/dearchive',
  '/api/logout_cookie',
  '  /api/logout_cookie',
  '&#47;api&#47;logout_cookie',
  '&#x2F;api&#x2F;contentdossier&#x2F;17&#x2F;archive',
  '&sol;api/logout_cookie',
  '/api/file/1/../../contentdossier/17/archive',
  '/api/file/1/download?next=/api/logout_cookie',
  'api/logout_cookie',
  '//evil.test/x.png',
  '\\\\evil.test/x.png',
  'https://evil.test/pixel.png',
  'HTTPS://EVIL.TEST/PIXEL.PNG',
  'http://evil.test/pixel.png',
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'java&#x09;script:alert(1)',
  'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'DATA:TEXT/HTML,<script>alert(1)</script>',
  'x',
];

// Each with an image attribute of its whitelist that stays.
const sanitisers: [string, (html: string) => string, string][] = [
  ['rich text', (html) => sanitiseRichText(html), 'alt="i"'],
  ['information text', sanitiseInformationText, 'width="5"'],
];

describe.each(sanitisers)('%s in the browser', (_name, sanitise, kept) => {
  it.each(HOSTILE_IMAGE_SOURCES)('drops the image source %s', (src) => {
    expect(sanitise(`<p>a<img src="${src}" ${kept}>b</p>`)).toBe(`<p>a<img ${kept}>b</p>`);
  });

  it('reads upper-case and unquoted attributes as the browser does', () => {
    expect(sanitise('<IMG SRC=/api/logout_cookie>')).toBe('<img>');
  });

  it('keeps raster data URLs and files of the product', () => {
    for (const src of [PNG, '/api/file/12/download', 'data:image/webp;base64,UklGRg==']) {
      expect(sanitise(`<img src="${src}">`)).toBe(`<img src="${src}">`);
    }
    expect(sanitise('<img src="&#47;api&#47;file&#47;12&#47;download">')).toBe(
      '<img src="/api/file/12/download">',
    );
  });

  it('drops a style that loads something and keeps the others', () => {
    for (const style of [
      'background-image:url(/api/contentdossier/17/archive)',
      'background:URL( "//evil.test/x" )',
      'background:\\75 rl(/api/logout_cookie)',
      'background:image-set("/api/logout_cookie" 1x)',
    ]) {
      expect(sanitise(`<div style='${style}'>x</div>`), style).toBe('<div>x</div>');
    }
    expect(sanitise('<div style="color: red">x</div>')).toBe('<div style="color: red">x</div>');
  });
});

describe('rich text links in the browser', () => {
  it('keeps absolute http(s), mailto and tel; drops paths into the app and scripts', () => {
    for (const listMode of [false, true]) {
      for (const href of ['https://example.com/a?b=1', 'http://example.com', 'mailto:a@b.nl', 'tel:+3120']) {
        expect(sanitiseRichText(`<a href="${href}">l</a>`, listMode)).toBe(`<a href="${href}">l</a>`);
      }
      for (const href of [
        '/api/contentdossier/17/archive',
        '&#47;api/logout_cookie',
        '//evil.test',
        'javascript:alert(1)',
        'JaVaScRiPt:alert(1)',
        'data:text/html,x',
        'contentdossier/17',
      ]) {
        expect(sanitiseRichText(`<a href="${href}">l</a>`, listMode), href).toBe('<a>l</a>');
      }
    }
  });

  it('what the editor emits loses a relative image too', () => {
    expect(richTextOutput('<p>a</p><img src="/api/logout_cookie">')).not.toContain('logout');
  });
});
