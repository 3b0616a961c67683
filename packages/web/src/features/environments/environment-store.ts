import type { Environment, TokenData } from '@dossierbase/core';
import { createLocalStore, STORAGE_KEYS, useLocalStore } from '../../app/local-store';
import { hasRole } from '../auth/session';

// The server may add the user's role ids in this environment; visibility falls back to "show" without it.
export type StoredEnvironment = Environment & { user_roles?: number[] };

export const environmentStore = createLocalStore<StoredEnvironment>(STORAGE_KEYS.environment);

export function useEnvironment(): StoredEnvironment | null {
  return useLocalStore(environmentStore);
}

export function isEnvironmentAdmin(token: TokenData | null, environment: StoredEnvironment | null): boolean {
  return hasRole(token, 'ROLE_ADMIN') || !!environment?.credentials?.includes('environment-admin');
}

/** May create environments and use the Tools menu. */
export function canManageEnvironments(token: TokenData | null): boolean {
  return hasRole(token, 'ROLE_ADMIN', 'ROLE_CONTRACT_ADMIN');
}
