import { OTP_HEADER, type TokenData } from '@dossierbase/core';
import { api } from '../../api/client';

export function loginCheck(credentials: { username: string; password: string }, code?: string) {
  return api.post<TokenData>('/login_check', credentials, code ? { [OTP_HEADER]: code } : undefined);
}

const keyLogins = new Map<string, Promise<TokenData>>();

// One call per key, even when React mounts the page twice: the server may accept a key only once.
export function keyLoginCheck(username: string, key: string) {
  const id = `${username}\n${key}`;
  let pending = keyLogins.get(id);
  if (!pending) {
    pending = api.post<TokenData>('/key_login_check', { username, key });
    keyLogins.set(id, pending);
    pending.catch(() => keyLogins.delete(id));
  }
  return pending;
}

export function forgotPassword(body: { username: string; email: string }) {
  return api.post<unknown>('/user/forgot_password', body);
}

export function checkResetToken(token: string, signal?: AbortSignal) {
  return api.get<{ valid: boolean; username: string }>(
    `/user/reset_password/${encodeURIComponent(token)}`,
    undefined,
    signal,
  );
}

export function resetPassword(body: { token: string; password: string }) {
  return api.post<unknown>('/user/reset_password', body);
}

/** The current password is asked on the profile; a forced update (after a key login) needs none. */
export function changePassword(password: string, currentPassword?: string) {
  return api.patch<TokenData>('/user/change_password', { password, current_password: currentPassword });
}
