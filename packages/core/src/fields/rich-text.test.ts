import { describe, expect, it } from 'vitest';
import { imageFileId, isAllowedImageSource, isAllowedInlineStyle, isAllowedLinkTarget } from './rich-text';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('rich text addresses', () => {
  it('images: raster data URLs and product files only', () => {
    for (const good of [
      PNG,
      'data:image/jpeg;base64,/9j/4AAQ',
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      'data:image/webp;base64,UklGRg==',
      'DATA:IMAGE/PNG;BASE64,iVBO',
      '/api/file/1/download',
      '/api/file/2147483647/download',
    ]) {
      expect(isAllowedImageSource(good), good).toBe(true);
    }
    for (const bad of [
      '/api/contentdossier/17/archive',
      '/api/logout_cookie',
      '  /api/logout_cookie',
      '/api/file/1/download ',
      ' /api/file/1/download',
      '/api/file/1/download?x=1',
      '/api/file/1/download#x',
      '/api/file/01/download',
      '/api/file/0/download',
      '/api/file/2147483648/download',
      '/api/file/0x10/download',
      '/api/file/1/../../contentdossier/17/archive',
      '/api/file/1/download/../../../logout_cookie',
      'api/file/1/download',
      '//evil.test/api/file/1/download',
      'https://evil.test/a.png',
      'http://evil.test/a.png',
      'HTTPS://EVIL.TEST/A.PNG',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/png,rawbytes',
      'data:image/png;base64,iVBO R0l',
      'blob:https://x/1',
      '&#47;api/logout_cookie',
      'x',
      '',
    ]) {
      expect(isAllowedImageSource(bad), bad).toBe(false);
    }
    expect(imageFileId('/api/file/42/download')).toBe(42);
    expect(imageFileId('/api/file/42/download?')).toBeNull();
  });

  it('links: absolute http(s), mailto and tel only', () => {
    for (const good of [
      'https://a.nl/x',
      'http://a.nl',
      'HTTPS://A.NL',
      'mailto:a@b.nl',
      'tel:+31201234567',
    ]) {
      expect(isAllowedLinkTarget(good), good).toBe(true);
    }
    for (const bad of [
      '/api/contentdossier/17/archive',
      '//evil.test',
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'contentdossier/5',
      '',
    ]) {
      expect(isAllowedLinkTarget(bad), bad).toBe(false);
    }
  });

  it('styles: nothing that loads a resource', () => {
    expect(isAllowedInlineStyle('color: red; font-size: 12pt')).toBe(true);
    for (const bad of [
      'background: url(/api/logout_cookie)',
      'background-image: URL ("/x")',
      'background: image-set("/x" 1x)',
      'width: expression(alert(1))',
      'background: \\75 rl(/x)',
      '@import "/x"',
    ]) {
      expect(isAllowedInlineStyle(bad), bad).toBe(false);
    }
  });
});
