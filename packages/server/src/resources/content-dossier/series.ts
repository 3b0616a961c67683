import {
  DOSSIER_MESSAGES,
  type DossierReport,
  type FieldContext,
  fieldSettingsOf,
  getFieldType,
  MAX_SERIES,
  parseFieldSettings,
  type Recurrence,
  SERIES_MESSAGES,
  seriesDates,
  seriesProblem,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import { badRequest, HttpError } from '../../http-errors';
import { visibleItems } from '../../policy/display-item';
import { authorize, canCreateDossier } from '../../policy/dossier';
import type { EntityScope } from '../../policy/entity';
import { checkDuplicates, checkRequired } from './checks';
import { createdChanges } from './dossier-log';
import { EDIT_VIEWS, itemMap } from './items';
import { embeddedParent } from './links';
import { normaliseValues } from './normalise';
import { announceCreated, storeCreated } from './service';

// POST /api/contentdossier/series: the multiple create modal's dossiers, one per date of a
// repeating rule (core/recurrence), in one call and one transaction: all are created or none. The
// spec's client posts once per date; a failure half-way would leave half a series.

const todayInAmsterdam = (now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(now);

export async function createSeries(
  db: Db,
  scope: EntityScope,
  input: {
    values: Record<string, unknown>;
    ignore_existing: boolean;
    embedded?: number;
    linkId?: number;
    dateItem: number;
    recurrence: Recurrence;
  },
): Promise<number[]> {
  authorize(canCreateDossier(scope));
  const embedded = await embeddedParent(db, scope, input);
  const items = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const byKey = itemMap(items);
  const dateKey = String(input.dateItem);
  const dateV = byKey.get(dateKey);
  if (!dateV?.dataField || dateV.field?.type !== 'date')
    throw badRequest({ dateItem: SERIES_MESSAGES.notADate });
  const settings = parseFieldSettings('date', fieldSettingsOf(dateV));
  const now = new Date();
  const problem = seriesProblem(input.recurrence, settings.restriction, todayInAmsterdam(now));
  if (problem) throw badRequest({ recurrence: problem });
  const dates = seriesDates(input.recurrence);
  if (dates.length === 0) throw badRequest({ recurrence: SERIES_MESSAGES.none });
  if (dates.length > MAX_SERIES) throw badRequest({ recurrence: SERIES_MESSAGES.tooMany });

  // the values every dossier shares, checked once as a create checks them
  const { [dateKey]: _, ...shared } = input.values;
  const normalised = await normaliseValues(db, scope, byKey, shared);
  if (Object.keys(normalised.errors).length) throw badRequest(normalised.errors);
  const links = new Map(normalised.links.map((l) => [l.item.item.id, l.ids]));
  // a unique value would be the same in every dossier of the series
  if (dates.length > 1) {
    const errors: Record<string, string> = {};
    for (const v of items) {
      if (!v.dataField || v.field?.type !== 'text') continue;
      if (!parseFieldSettings('text', fieldSettingsOf(v)).validators.includes('UniqueValue')) continue;
      const value = normalised.values[String(v.dataField.id)];
      if (typeof value === 'string' && value !== '') errors[String(v.item.id)] = DOSSIER_MESSAGES.duplicate;
    }
    if (Object.keys(errors).length) throw badRequest(errors);
  }
  if (!input.ignore_existing) await checkDuplicates(db, scope, items, normalised.values, null);

  // per date: the date as the field takes it, and the dossier's required items
  const ctx: FieldContext = { now, currentUserId: scope.access.user.id };
  const report: DossierReport[] = [];
  const planned: { date: string; values: Record<string, unknown> }[] = [];
  for (const [index, date] of dates.entries()) {
    const raw = settings.withtime ? `${date}T${input.recurrence.time ?? '00:00'}` : date;
    const result = getFieldType('date').normalise(raw, settings, ctx);
    if (!result.ok) {
      report.push({ id: index + 1, summary: date, errors: { [dateKey]: result.message } });
      continue;
    }
    const values = { ...normalised.values, [String(dateV.dataField.id)]: result.value };
    const errors: Record<string, string> = {};
    checkRequired(scope.entity, items, items, values, links, errors);
    if (Object.keys(errors).length) {
      report.push({ id: index + 1, summary: date, errors });
      continue;
    }
    planned.push({ date: raw, values });
  }
  if (report.length) {
    const first = report[0]?.errors ?? {};
    throw new HttpError(400, { errors: first, report });
  }

  const created = await db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const { date, values } of planned) {
      const submitted = { ...input.values, [dateKey]: date };
      ids.push(
        await storeCreated(db, trx, scope, values, normalised.links, embedded, (stored, storedLinks) =>
          createdChanges(items, submitted, { values: stored, links: storedLinks }),
        ),
      );
    }
    return ids;
  });
  await announceCreated(db, scope, created, normalised.links, embedded);
  return created;
}
