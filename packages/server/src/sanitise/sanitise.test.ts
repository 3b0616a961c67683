import { describe, expect, test } from 'vitest';
import { imageFileIds } from './addresses';
import { sanitiseInformationText } from './information-text';
import { sanitiseRichText } from './rich-text';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// Image sources that must never reach a reader's browser: paths into the app (a GET on the reader's
// behalf), other sites (they learn who reads), scripts and non-raster data.
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

describe('rich text (textarea) sanitiser', () => {
  test.each(HOSTILE_IMAGE_SOURCES)('drops the image source %s', (src) => {
    expect(sanitiseRichText(`<p>a<img src="${src}" alt="i">b</p>`)).toBe('<p>a<img alt="i" />b</p>');
  });

  test('an upper-case attribute or unquoted value is read as the browser reads it', () => {
    expect(sanitiseRichText('<IMG SRC=/api/logout_cookie>')).toBe('<img />');
    expect(sanitiseRichText("<img src='/api/contentdossier/17/archive'>")).toBe('<img />');
  });

  test('keeps raster data URLs and files of the product', () => {
    for (const src of [PNG, '/api/file/12/download', 'data:image/webp;base64,UklGRg==']) {
      expect(sanitiseRichText(`<img src="${src}" />`)).toBe(`<img src="${src}" />`);
    }
    // entity-encoded, the same address is the same file
    expect(sanitiseRichText('<img src="&#47;api&#47;file&#47;12&#47;download">')).toBe(
      '<img src="/api/file/12/download" />',
    );
  });

  test('with the environment’s files, an image of another file loses its source', () => {
    const html = '<img src="/api/file/12/download" /><img src="/api/file/13/download" />';
    expect(imageFileIds(sanitiseRichText(html))).toEqual([12, 13]);
    expect(sanitiseRichText(html, new Set([12]))).toBe('<img src="/api/file/12/download" /><img />');
  });

  test('links: absolute http(s), mailto and tel only', () => {
    for (const href of ['https://example.com/a?b=1', 'http://example.com', 'mailto:a@b.nl', 'tel:+3120']) {
      expect(sanitiseRichText(`<a href="${href}">l</a>`)).toBe(`<a href="${href}">l</a>`);
    }
    for (const href of [
      '/api/contentdossier/17/archive',
      '&#47;api/logout_cookie',
      '//evil.test',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'contentdossier/17',
    ]) {
      expect(sanitiseRichText(`<a href="${href}">l</a>`), href).toBe('<a>l</a>');
    }
  });

  test('styles that load something go', () => {
    expect(sanitiseRichText('<span style="color:red;background:url(/api/logout_cookie)">x</span>')).toBe(
      '<span>x</span>',
    );
    expect(sanitiseRichText('<span style="color:red">x</span>')).toBe('<span style="color:red">x</span>');
  });
});

describe('information text sanitiser', () => {
  test.each(HOSTILE_IMAGE_SOURCES)('drops the image source %s', (src) => {
    expect(sanitiseInformationText(`<p>a<img src="${src}" width="5">b</p>`)).toBe(
      '<p>a<img width="5" />b</p>',
    );
  });

  test('keeps raster data URLs and files of the product', () => {
    for (const src of [PNG, '/api/file/12/download']) {
      expect(sanitiseInformationText(`<img src="${src}" />`)).toBe(`<img src="${src}" />`);
    }
  });

  test('a style that loads something goes; others stay', () => {
    for (const style of [
      'background-image:url(/api/contentdossier/17/archive)',
      'background:URL( "//evil.test/x" )',
      'background:\\75 rl(/api/logout_cookie)',
      'background:image-set("/api/logout_cookie" 1x)',
    ]) {
      expect(sanitiseInformationText(`<div style='${style}'>x</div>`), style).toBe('<div>x</div>');
    }
    expect(sanitiseInformationText('<div style="color:red">x</div>')).toBe('<div style="color:red">x</div>');
  });
});
