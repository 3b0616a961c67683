import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { DossierLogChange } from '../../db/schema';
import type { VisibleItem } from '../../policy/display-item';
import type { EnvironmentAccess } from '../../policy/environment';
import { itemName } from './items';

// The change log of dossiers: every write to a dossier writes one row here, in its transaction,
// through writeLog.

export type LogType = 'create' | 'change' | 'archive' | 'delete' | 'shown';

/** The log row of a change of one dossier (of entity `entityId`) by the user of `access`. */
export function logRow<Id>(
  access: EnvironmentAccess,
  dossier: { id: Id; entityId: number },
  type: LogType,
  changes: DossierLogChange[],
) {
  return {
    environment_id: access.environment.id,
    content_dossier_id: dossier.id,
    def_dossier_id: dossier.entityId,
    type,
    user_id: access.user.id,
    username: access.user.username,
    changes,
  };
}

/** Logs a change of one dossier (of entity `entityId`) by the user of `access`. */
export async function writeLog(
  db: Db,
  access: EnvironmentAccess,
  dossier: { id: number; entityId: number },
  type: LogType,
  changes: DossierLogChange[],
) {
  await db
    .insertInto('dossier_log')
    .values(logRow(access, dossier, type, changes))
    .execute();
}

/** A dossier's values as the log compares them: per data field, and the linked ids per link item. */
export interface LoggedValues {
  values: Record<string, unknown>;
  links: Map<number, number[]>;
}

const loggedValue = (v: VisibleItem, state: LoggedValues) =>
  v.dataField ? (state.values[String(v.dataField.id)] ?? null) : (state.links.get(v.item.id) ?? []);

/** The entries of a create: every item that was sent, with the value stored. */
export function createdChanges(
  items: VisibleItem[],
  submitted: Record<string, unknown>,
  stored: LoggedValues,
): DossierLogChange[] {
  return items
    .filter((v) => Object.hasOwn(submitted, String(v.item.id)))
    .map((v) => ({
      displayItemId: v.item.id,
      defDisplayItemName: itemName(v),
      oldValue: null,
      newValue: loggedValue(v, stored),
    }));
}

/** The entries of an update: the items that were sent and whose value changed. */
export function updatedChanges(
  items: VisibleItem[],
  submitted: Record<string, unknown>,
  before: LoggedValues,
  after: LoggedValues,
): DossierLogChange[] {
  const changes: DossierLogChange[] = [];
  for (const v of items) {
    if (!Object.hasOwn(submitted, String(v.item.id))) continue;
    const [oldValue, newValue] = [loggedValue(v, before), loggedValue(v, after)];
    if (JSON.stringify(oldValue) !== JSON.stringify(newValue))
      changes.push({ displayItemId: v.item.id, defDisplayItemName: itemName(v), oldValue, newValue });
  }
  return changes;
}

/** A 'shown' entry within this long of the last one of the same user and dossier is not written again. */
const SHOWN_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Logs that the user opened the dossier, at most once per user and dossier per hour. The check and
 * the insert hold a transaction lock on the pair, so two tabs opening it at once write one entry.
 */
export async function logShown(db: Db, access: EnvironmentAccess, dossier: { id: number; entityId: number }) {
  const environmentId = access.environment.id;
  const since = new Date(Date.now() - SHOWN_INTERVAL_MS);
  const recent = (q: Db) =>
    q
      .selectFrom('dossier_log')
      .select('id')
      .where('environment_id', '=', environmentId)
      .where('content_dossier_id', '=', dossier.id)
      .where('type', '=', 'shown')
      .where('user_id', '=', access.user.id)
      .where('created_at', '>', since)
      .limit(1)
      .executeTakeFirst();
  // the common case (seen within the hour) costs one indexed read and no transaction
  if (await recent(db)) return;
  await db.transaction().execute(async (trx) => {
    const key = `dossier-shown:${environmentId}:${dossier.id}:${access.user.id}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    const again = await recent(trx);
    if (!again) await writeLog(trx, access, dossier, 'shown', []);
  });
}
