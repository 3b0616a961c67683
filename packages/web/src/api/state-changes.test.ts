// @vitest-environment jsdom
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyLoginCheck } from '../features/auth/auth-api';
import { logout, refreshToken } from '../features/auth/session';
import { setSubscription } from '../features/dossiers/dossier-api';
import { type BulkAction, bulkCall } from '../features/dossiers/list/list-api';

// Every call that changes state is POST/PUT/PATCH/DELETE with the CSRF header: the server answers
// 404 to the GET forms, so a link or an image elsewhere changes nothing (issue 12).
const fetchMock = vi.fn();
beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => new Response('{}', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function lastCall() {
  const [url, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
  return { url, method: init.method, headers: init.headers as Record<string, string> };
}

describe('state-changing calls', () => {
  it.each<[BulkAction, string]>([
    ['archive', '/api/contentdossier/5/archive'],
    ['dearchive', '/api/contentdossier/5/dearchive'],
    ['subscribe', '/api/contentdossier/5/subscription/1'],
    ['unsubscribe', '/api/contentdossier/5/subscription/0'],
  ])('bulk %s is a POST with the CSRF header', async (action, url) => {
    await bulkCall(action, 5);
    expect(lastCall()).toMatchObject({ url, method: 'POST', headers: { [CSRF_HEADER]: CSRF_VALUE } });
  });

  it('the subscribe toggle, refresh, sign-out and key login are POSTs with the CSRF header', async () => {
    const calls: [() => Promise<unknown>, string][] = [
      [() => setSubscription(8, true), '/api/contentdossier/8/subscription/1'],
      [() => setSubscription(8, false), '/api/contentdossier/8/subscription/0'],
      [refreshToken, '/api/refresh_token'],
      [logout, '/api/logout_cookie'],
      [() => keyLoginCheck('ann', 'k1'), '/api/key_login_check'],
    ];
    for (const [call, url] of calls) {
      await call();
      expect(lastCall()).toMatchObject({ url, method: 'POST', headers: { [CSRF_HEADER]: CSRF_VALUE } });
    }
    // The key travels in the body, never in the URL.
    const [, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ username: 'ann', key: 'k1' });
  });
});
