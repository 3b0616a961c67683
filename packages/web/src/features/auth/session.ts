import type { TokenData } from '@dossierbase/core';
import { api, whenPasswordUpdateRequired } from '../../api/client';
import { createLocalStore, STORAGE_KEYS, useLocalStore } from '../../app/local-store';

export const tokenStore = createLocalStore<TokenData>(STORAGE_KEYS.token);

export const NEAR_EXPIRY_SECONDS = 5 * 60;
export const REFRESH_TTL_THRESHOLD = 500;
const REFERER_RESET_MS = 24 * 60 * 60 * 1000;

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

export function hasRole(token: TokenData | null, ...roles: string[]): boolean {
  return !!token?.roles?.some((role) => roles.includes(role));
}

export function isNearExpiry(token: TokenData): boolean {
  return token.exp - nowSeconds() <= NEAR_EXPIRY_SECONDS;
}

export function rememberReferer(path: string): void {
  localStorage.setItem(STORAGE_KEYS.referer, path);
}

/** Where to go after signing in: the remembered origin unless it is '/' or stale (> 24 h since last visit). */
export function consumeReferer(): string {
  const lastVisit = Number(localStorage.getItem(STORAGE_KEYS.lastVisit) ?? 0);
  if (lastVisit && Date.now() - lastVisit > REFERER_RESET_MS) localStorage.setItem(STORAGE_KEYS.referer, '/');
  const referer = localStorage.getItem(STORAGE_KEYS.referer);
  localStorage.removeItem(STORAGE_KEYS.referer);
  return referer && referer !== '/' ? referer : '/environment';
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
  localStorage.setItem(STORAGE_KEYS.lastVisit, String(Date.now()));
  tokenStore.set(null);
}
