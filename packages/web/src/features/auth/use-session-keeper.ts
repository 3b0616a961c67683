import { useEffect } from 'react';
import { api, isApiError } from '../../api/client';
import {
  clearTokenData,
  isNearExpiry,
  isTokenValid,
  NEAR_EXPIRY_SECONDS,
  REFRESH_TTL_THRESHOLD,
  refreshToken,
  tokenStore,
} from './session';

const CHECK_INTERVAL_MS = 5 * 60 * 1000;

export async function checkSession(): Promise<void> {
  const token = tokenStore.get();
  if (!token) return;
  if (!isTokenValid(token)) {
    clearTokenData();
    return;
  }
  if (!isNearExpiry(token)) return;
  let ttl: number;
  try {
    ttl = (await api.get<{ ttl: number }>('/ttl_token')).ttl;
  } catch (error) {
    console.warn('Could not read token lifetime', error);
    return;
  }
  if (ttl > REFRESH_TTL_THRESHOLD) return;
  try {
    await refreshToken();
  } catch (error) {
    if (isApiError(error, 401)) clearTokenData();
    else console.warn('Token refresh failed', error);
  }
}

/** Keeps the token fresh: checks every five minutes, on window focus and once at start. */
export function useSessionKeeper(): void {
  useEffect(() => {
    void checkSession();
    const timer = window.setInterval(() => void checkSession(), CHECK_INTERVAL_MS);
    const onFocus = () => void checkSession();
    window.addEventListener('focus', onFocus);
    // Also check when the near-expiry window opens and right after expiry, so the page reacts on time.
    let expiryTimer = 0;
    const scheduleExpiryCheck = () => {
      window.clearTimeout(expiryTimer);
      const token = tokenStore.get();
      if (!token) return;
      const nearExpiryAt = (token.exp - NEAR_EXPIRY_SECONDS) * 1000 + 1000;
      const at = nearExpiryAt > Date.now() ? nearExpiryAt : token.exp * 1000 + 1000;
      const ms = Math.max(at - Date.now(), 0);
      if (ms < 2 ** 31 - 1) expiryTimer = window.setTimeout(() => void checkSession(), ms);
    };
    scheduleExpiryCheck();
    const unsubscribe = tokenStore.subscribe(scheduleExpiryCheck);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(expiryTimer);
      window.removeEventListener('focus', onFocus);
      unsubscribe();
    };
  }, []);
}
