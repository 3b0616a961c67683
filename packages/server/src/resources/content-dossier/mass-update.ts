import {
  DOSSIER_MESSAGES,
  type DossierReport,
  fieldSettingsOf,
  MASS_UPDATE_MESSAGES,
  parseFieldSettings,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { DossierLogChange } from '../../db/schema';
import { badRequest, HttpError, notFound } from '../../http-errors';
import { type VisibleItem, visibleItems } from '../../policy/display-item';
import { authorize, canEditDossiers, holds, isReadOnly } from '../../policy/dossier';
import type { EntityScope } from '../../policy/entity';
import { readerSummaryKeys } from '../../policy/summary';
import { visibleSummary } from '../../query/visible-summary';
import { checkDuplicates, checkRequired } from './checks';
import { logRow, updatedChanges } from './dossier-log';
import { EDIT_VIEWS, itemMap } from './items';
import { linkedIds } from './links';
import { normaliseValues } from './normalise';
import type { DossierRow } from './read-model';
import { announceChanged, storeUpdate } from './service';
import { noticeSubscribers, pushNotices } from './subscription-notices';

// PUT /api/contentdossier/massupdate: the same values written to many dossiers of one entity, all in
// one transaction or none. The values are checked once as a single edit checks them (each item's
// field type, list options and links the user may choose); then, per dossier, what the edit would
// refuse there (archived, required, a unique value twice) is collected into a report, and a single
// refused dossier refuses the whole call. Each changed dossier gets its own change log entry.

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A multiple list or link: without overwrite the new values are added to those the dossier holds. */
function isMultiple(v: VisibleItem) {
  if (v.link) return v.link.type_of_link === 'embeddedList' || v.link.settings.multiple === true;
  return fieldSettingsOf(v).multiple === true;
}

const asList = (value: unknown): unknown[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
const union = (a: unknown[], b: unknown[]) => [...a, ...b.filter((x) => !a.includes(x))];

interface Plan {
  id: number;
  values: Record<string, unknown>;
  links: { item: VisibleItem; ids: number[] }[];
  changes: DossierLogChange[];
  /** the unique text fields (data-field ids) this update changes */
  unique: string[];
}

export async function massUpdate(
  db: Db,
  scope: EntityScope,
  input: { overwrite: boolean; update_values: Record<string, unknown>; dossier_ids: number[] },
): Promise<number> {
  authorize(holds(scope, 'massupdate') && canEditDossiers(scope));
  const environmentId = scope.access.environment.id;
  const ids = [...new Set(input.dossier_ids)];
  const dossiers = await db
    .selectFrom('content_dossier')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', '=', scope.entity.id)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  // a dossier of another entity or environment is as unknown as one that does not exist
  if (dossiers.length !== ids.length) throw notFound();

  const submitted = Object.fromEntries(Object.entries(input.update_values).filter(([, v]) => !isEmpty(v)));
  if (Object.keys(submitted).length === 0) throw badRequest({ update_values: MASS_UPDATE_MESSAGES.nothing });
  const allItems = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const byKey = itemMap(allItems);
  // every value checked once, as an edit of one dossier checks it; a refused value refuses the call
  const normalised = await normaliseValues(db, scope, byKey, submitted);
  if (Object.keys(normalised.errors).length) throw badRequest(normalised.errors);
  const sentItems = allItems.filter((v) => Object.hasOwn(submitted, String(v.item.id)));
  const linkItems = allItems.filter((v) => v.link);

  const summaryKey = (await readerSummaryKeys(db, scope.access)).get(scope.entity.id);
  const report: DossierReport[] = [];
  const plans: Plan[] = [];
  const uniqueCount = new Map<string, number>();
  const refuse = (dossier: DossierRow, errors: Record<string, string>) =>
    report.push({ id: Number(dossier.id), summary: visibleSummary(dossier, summaryKey), errors });

  for (const dossier of dossiers) {
    const id = Number(dossier.id);
    if (isReadOnly(dossier)) {
      refuse(dossier, { dossier: DOSSIER_MESSAGES.archived });
      continue;
    }
    const oldValues = dossier.values as Record<string, unknown>;
    const values = { ...oldValues };
    const sentHere: Record<string, unknown> = {};
    for (const v of sentItems) {
      if (!v.dataField) continue;
      const key = String(v.dataField.id);
      if (!Object.hasOwn(normalised.values, key)) continue;
      const value = normalised.values[key];
      const current = oldValues[key];
      if (input.overwrite || isEmpty(current)) values[key] = value;
      else if (isMultiple(v)) values[key] = union(asList(current), asList(value));
      else continue;
      sentHere[String(v.item.id)] = submitted[String(v.item.id)];
    }
    const oldLinks = new Map<number, number[]>();
    const links = new Map<number, number[]>();
    for (const v of linkItems) {
      if (!v.link) continue;
      const current = await linkedIds(db, environmentId, id, v.link);
      oldLinks.set(v.item.id, current);
      links.set(v.item.id, current);
    }
    const linkWrites: Plan['links'] = [];
    for (const l of normalised.links) {
      const current = oldLinks.get(l.item.item.id) ?? [];
      let next: number[];
      if (input.overwrite || current.length === 0) next = l.ids;
      else if (isMultiple(l.item)) next = union(current, l.ids) as number[];
      else continue;
      links.set(l.item.item.id, next);
      linkWrites.push({ item: l.item, ids: next });
      sentHere[String(l.item.item.id)] = submitted[String(l.item.item.id)];
    }
    const checked = sentItems.filter((v) => Object.hasOwn(sentHere, String(v.item.id)));
    const errors: Record<string, string> = {};
    checkRequired(scope.entity, checked, allItems, values, links, errors);
    if (Object.keys(errors).length) {
      refuse(dossier, errors);
      continue;
    }
    const changedUnique = Object.fromEntries(
      checked
        .filter((v) => v.dataField && isUnique(v))
        .map((v) => [String(v.dataField?.id), values[String(v.dataField?.id)]])
        .filter(([key, value]) => oldValues[key as string] !== value),
    );
    if (Object.keys(changedUnique).length) {
      for (const key of Object.keys(changedUnique)) uniqueCount.set(key, (uniqueCount.get(key) ?? 0) + 1);
      try {
        await checkDuplicates(db, scope, checked, changedUnique, id);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        refuse(dossier, (error.body.errors as Record<string, string>) ?? {});
        continue;
      }
    }
    plans.push({
      id,
      values,
      links: linkWrites,
      changes: updatedChanges(checked, sentHere, { values: oldValues, links: oldLinks }, { values, links }),
      unique: Object.keys(changedUnique),
    });
  }
  // a unique value written to two or more dossiers would be a duplicate among them
  const twice = [...uniqueCount].filter(([, n]) => n > 1).map(([key]) => key);
  if (twice.length) {
    const items = sentItems.filter((v) => v.dataField && twice.includes(String(v.dataField.id)));
    const errors = Object.fromEntries(items.map((v) => [String(v.item.id), DOSSIER_MESSAGES.duplicate]));
    for (const plan of plans.filter((p) => p.unique.some((key) => twice.includes(key)))) {
      const dossier = dossiers.find((d) => Number(d.id) === plan.id);
      if (dossier) refuse(dossier, errors);
    }
  }
  if (report.length) {
    report.sort((a, b) => a.id - b.id);
    throw new HttpError(400, { errors: { dossier_ids: MASS_UPDATE_MESSAGES.refused }, report });
  }

  const notified = await db.transaction().execute(async (trx) => {
    const logRows = [];
    const noticed: number[] = [];
    for (const plan of plans) {
      await storeUpdate(db, trx, scope, plan.id, plan.values, plan.links);
      if (plan.changes.length === 0) continue;
      noticed.push(...(await noticeSubscribers(trx, scope.access, plan.id, 'change')));
      logRows.push(logRow(scope.access, { id: plan.id, entityId: scope.entity.id }, 'change', plan.changes));
    }
    for (let i = 0; i < logRows.length; i += 500)
      await trx
        .insertInto('dossier_log')
        .values(logRows.slice(i, i + 500))
        .execute();
    return noticed;
  });
  await pushNotices(db, environmentId, [...new Set(notified)]);
  announceChanged(
    db,
    scope,
    plans.map((p) => p.id),
    plans.flatMap((p) => p.links),
  );
  return plans.length;
}

const isUnique = (v: VisibleItem) =>
  v.field?.type === 'text' &&
  parseFieldSettings('text', fieldSettingsOf(v)).validators.includes('UniqueValue');
