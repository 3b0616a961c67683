import type { Migration } from 'kysely';
import * as foundation from './2026-11-21-foundation';
import * as entityConfiguration from './2026-11-22-entity-configuration';

// Listed by hand so the migrator needs no file-system scan; names sort by date.
export const migrations: Record<string, Migration> = {
  '2026-11-21-foundation': foundation,
  '2026-11-22-entity-configuration': entityConfiguration,
};
