import type { Db } from '../../db/database';
import type { DossierLogChange } from '../../db/schema';
import type { VisibleItem } from '../../policy/display-item';
import type { EnvironmentAccess } from '../../policy/environment';
import { itemName } from './items';

// The change log of dossiers: every write to a dossier writes one row here, in its transaction,
// through writeLog.

export type LogType = 'create' | 'change' | 'archive' | 'delete';

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
    .values({
      environment_id: access.environment.id,
      content_dossier_id: dossier.id,
      def_dossier_id: dossier.entityId,
      type,
      user_id: access.user.id,
      username: access.user.username,
      changes,
    })
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
    .map((v) => ({ defDisplayItemName: itemName(v), oldValue: null, newValue: loggedValue(v, stored) }));
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
      changes.push({ defDisplayItemName: itemName(v), oldValue, newValue });
  }
  return changes;
}
