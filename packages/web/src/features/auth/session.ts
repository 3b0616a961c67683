import type { TokenData } from '@dossierbase/core';
import { api, whenPasswordUpdateRequired, whenTwoFactorRequired } from '../../api/client';
import { createLocalStore, STORAGE_KEYS, useLocalStore } from '../../app/local-store';
import { safeReturnPath } from './return-path';

export const tokenStore = createLocalStore<TokenData>(STORAGE_KEYS.token);

export const NEAR_EXPIRY_SECONDS = 5 * 60;
export const REFRESH_TTL_THRESHOLD = 500;
const REFERER_TTL_MS = 24 * 60 * 60 * 1000;

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function isTokenValid(token: TokenData | null): token is TokenData {
  return !!token && typeof token.exp === 'number' && token.exp > nowSeconds();
}

export function isLoggedIn(): boolean {
  return isTokenValid(tokenStore.get());
}

export function useTokenData(): TokenData | null {
  const token = useLocalStore(tokenStore);
  return isTokenValid(token) ? token : null;
}

export function setTokenData(token: TokenData): void {
  tokenStore.set(token);
}

export function clearTokenData(): void {
  tokenStore.set(null);
}

// The server refused a call until the password is replaced (a key login elsewhere may have set it):
// the route guard shows the change form.
whenPasswordUpdateRequired(() => {
  const token = tokenStore.get();
  if (token && !token.re_pwd) tokenStore.set({ ...token, re_pwd: true });
});

// An environment of the user requires two-factor sign-in: the route guard shows the enrolment.
whenTwoFactorRequired(() => {
  const token = tokenStore.get();
  if (token && !token.two_factor_required) tokenStore.set({ ...token, two_factor_required: true });
});

export function isNearExpiry(token: TokenData): boolean {
  return token.exp - nowSeconds() <= NEAR_EXPIRY_SECONDS;
}

/**
 * Remembers the page asked for while signed out (or before an environment was chosen), to open it
 * after signing in; only a path of this site counts.
 */
export function rememberReferer(path: string): void {
  const safe = safeReturnPath(path, window.location.origin);
  if (safe === null || safe === '/') return;
  localStorage.setItem(STORAGE_KEYS.referer, JSON.stringify({ path: safe, at: Date.now() }));
}

/** The remembered page, forgotten once read; null when there is none or it is older than a day. */
export function takeReferer(): string | null {
  const raw = localStorage.getItem(STORAGE_KEYS.referer);
  localStorage.removeItem(STORAGE_KEYS.referer);
  let stored: { path?: unknown; at?: unknown } | null = null;
  try {
    stored = raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof stored?.at !== 'number' || Date.now() - stored.at > REFERER_TTL_MS) return null;
  return safeReturnPath(stored.path, window.location.origin);
}

/** Where to go after signing in: the remembered page, else the environment picker. */
export function consumeReferer(): string {
  return takeReferer() ?? '/environment';
}

export async function refreshToken(): Promise<TokenData> {
  const fresh = await api.post<Partial<TokenData>>('/refresh_token');
  // The refresh answer may carry only iat/exp; keep the rest of what we know.
  const merged = { ...(tokenStore.get() ?? {}), ...fresh } as TokenData;
  setTokenData(merged);
  return merged;
}

export async function logout(): Promise<void> {
  try {
    await api.post('/logout_cookie');
  } catch {
    // Signing out locally must work even when the server is unreachable.
  }
  localStorage.clear();
  tokenStore.set(null);
}
