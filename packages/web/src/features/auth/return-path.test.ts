import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

const ORIGIN = 'https://app.example.test';

describe('safeReturnPath', () => {
  it('keeps a relative path of this site with its query and hash', () => {
    expect(safeReturnPath('/contentdossier/12?selectedTab=3#notes', ORIGIN)).toBe(
      '/contentdossier/12?selectedTab=3#notes',
    );
    expect(safeReturnPath('/defdossier/4?dossierQuery=2', ORIGIN)).toBe('/defdossier/4?dossierQuery=2');
  });

  it.each([
    'https://evil.test/',
    '//evil.test/path',
    '/\\evil.test/path',
    '/\\/evil.test',
    '\\\\evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    'javascript:alert(1)',
    'contentdossier/12',
    '',
    ' /contentdossier/12',
  ])('refuses %j', (path) => {
    expect(safeReturnPath(path, ORIGIN)).toBeNull();
  });

  it('keeps an encoded character as part of the path, on this site', () => {
    expect(safeReturnPath('/%0a/evil.test', ORIGIN)).toBe('/%0a/evil.test');
  });

  it('refuses what is not a string', () => {
    expect(safeReturnPath(null, ORIGIN)).toBeNull();
    expect(safeReturnPath({ path: '/' }, ORIGIN)).toBeNull();
  });

  it('never returns to a sign-in page', () => {
    for (const path of [
      '/login',
      '/login?error=sso_failed',
      '/azure?username=x',
      '/reset_password/abc',
      '/forgot_password',
    ])
      expect(safeReturnPath(path, ORIGIN)).toBeNull();
    expect(safeReturnPath('/loginsomething', ORIGIN)).toBe('/loginsomething');
  });
});
