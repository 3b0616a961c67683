import type { Migration } from 'kysely';
import * as foundation from './2026-11-21-foundation';

// Listed by hand so the migrator needs no file-system scan; names sort by date.
export const migrations: Record<string, Migration> = {
  '2026-11-21-foundation': foundation,
};
