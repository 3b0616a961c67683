import { createPromiseCache } from '../promise-cache';
import { type EnvironmentAccess, isEnvironmentAdmin } from './environment';

// Configuration reads (entities, visible items, permissions) are the same for every request of a user
// with the same standing until an administrator changes something. They are cached per node under the
// environment's config_version, which triggers move on every configuration write (migration
// 2026-11-22T0310), and under what the answer depends on about the user: admin or their roles.
// The environment row, and so the version, is read fresh on every call.

const cache = createPromiseCache({ max: 5_000, ttlMs: 30 * 60_000 });

function standing(access: EnvironmentAccess): string {
  if (isEnvironmentAdmin(access)) return 'admin';
  return [...(access.membership?.role_ids ?? [])].sort((a, b) => a - b).join(',');
}

/** `compute` once per environment configuration version, user standing and `what`. Never mutate the value. */
export function configCached<T>(
  access: EnvironmentAccess,
  what: string,
  compute: () => Promise<T>,
): Promise<T> {
  const { id, config_version } = access.environment;
  return cache.get(`${id}:${config_version}:${standing(access)}:${what}`, compute);
}
