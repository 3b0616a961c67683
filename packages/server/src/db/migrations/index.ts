import type { Migration } from 'kysely';
import * as foundation from './2026-11-21T2340-foundation';
import * as entityConfiguration from './2026-11-22T0020-entity-configuration';
import * as dossierRecords from './2026-11-22T0045-dossier-records';
import * as files from './2026-11-22T0300-files';
import * as entityDataVersion from './2026-11-22T0305-entity-data-version';
import * as configVersion from './2026-11-22T0310-config-version';
import * as userSession from './2026-11-23T1000-user-session';

// Listed by hand so the migrator needs no file-system scan. Kysely runs them in name order,
// so every name starts with its UTC date and time.
export const migrations: Record<string, Migration> = {
  '2026-11-21T2340-foundation': foundation,
  '2026-11-22T0020-entity-configuration': entityConfiguration,
  '2026-11-22T0045-dossier-records': dossierRecords,
  '2026-11-22T0300-files': files,
  '2026-11-22T0305-entity-data-version': entityDataVersion,
  '2026-11-22T0310-config-version': configVersion,
  '2026-11-23T1000-user-session': userSession,
};
