import type { Environment, TokenData } from '@dossierbase/core';
import { useEffect } from 'react';
import { createLocalStore, STORAGE_KEYS, useLocalStore } from '../../app/local-store';
import { getEnvironment } from './environments-api';

// The chosen environment as the server answered it, kept locally. What the user may do comes with it
// (`abilities`, decided by the server's policy): screens read it and never re-derive a rule.
export type StoredEnvironment = Environment;

export const environmentStore = createLocalStore<StoredEnvironment>(STORAGE_KEYS.environment);

let reread = false;
/** An environment stored before answers carried abilities is read again, once. */
function rereadWithoutAbilities(environment: StoredEnvironment) {
  if (reread) return;
  reread = true;
  void getEnvironment(environment.id)
    .then((fresh) => {
      if (environmentStore.get()?.id === fresh.id) environmentStore.set(fresh);
    })
    .catch(() => undefined);
}

export function useEnvironment(): StoredEnvironment | null {
  const environment = useLocalStore(environmentStore);
  const stale = environment !== null && !environment.abilities;
  useEffect(() => {
    if (stale && environment) rereadWithoutAbilities(environment);
  }, [stale, environment]);
  return environment;
}

/** A text setting of the environment (help contact, accent colour), or null when it has none. */
export function environmentSetting(environment: StoredEnvironment | null, key: string): string | null {
  const value = environment?.settings?.[key];
  return typeof value === 'string' && value ? value : null;
}

/** Super or environment admin of this environment (the server's answer). */
export const isEnvironmentAdmin = (environment: StoredEnvironment | null): boolean =>
  environment?.abilities?.canAdminister ?? false;

/** May create environments and use the Tools menu (the server's answer, with the token data). */
export const canManageEnvironments = (token: TokenData | null): boolean =>
  token?.abilities?.canCreateEnvironments ?? false;
