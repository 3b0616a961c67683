import { DOSSIER_MESSAGES, SERIES_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectForbidden } from '../../../test/entity-test-setup';
import { failDossierWrites } from '../../../test/fail-writes';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { addField, type DossierSetup, dossierSetup, key } from './fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const URL = '/api/contentdossier/series';

const countOf = async (s: DossierSetup) =>
  (await t.db.selectFrom('content_dossier').select('id').where('def_dossier_id', '=', s.client.id).execute())
    .length;

/** Client's name is unique and obligatory: the series sends none, so it is made optional and plain. */
async function setup() {
  const s = await dossierSetup(t);
  await t.db
    .updateTable('def_dossier_def_field')
    .set({ obligatory: false })
    .where('id', '=', s.fields.name.dataField.id)
    .execute();
  return s;
}

const body = (
  s: DossierSetup,
  recurrence: Record<string, unknown>,
  values: Record<string, unknown> = {},
) => ({
  defDossier: s.client.id,
  values: { [key(s.fields.extra.item)]: 'series', ...values },
  dateItem: s.fields.date.item.id,
  recurrence,
});

describe('series (multiple create)', () => {
  test('needs create; creates one dossier per date with the shared values, each logged', async () => {
    const s = await setup();
    const monthly = {
      frequency: 'monthly',
      start: '2027-01-01',
      on: 'ordinal',
      ordinal: -1,
      ordinalDay: 'FR',
      end: { type: 'count', count: 12 },
    };
    await s.grant(s.client, ['show']);
    expectForbidden(await s.member.post(URL, body(s, monthly)), 'member without create');
    expect((await s.outsider.post(URL, body(s, monthly))).statusCode).toBe(404);
    expect(await countOf(s)).toBe(0);
    await s.grant(s.client, ['show', 'create']);
    const created = await s.member.post(URL, body(s, monthly));
    expect(created.statusCode, created.body).toBe(201);
    const ids = created.json().ids as number[];
    expect(ids).toHaveLength(12);
    const rows = await t.db
      .selectFrom('content_dossier')
      .selectAll()
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    const dates = rows.map((r) => (r.values as Record<string, unknown>)[key(s.fields.date.dataField)]);
    expect(dates.slice(0, 3)).toEqual(['2027-01-29', '2027-02-26', '2027-03-26']);
    expect(
      rows.every((r) => (r.values as Record<string, unknown>)[key(s.fields.extra.dataField)] === 'series'),
    ).toBe(true);
    // each its own auto number
    expect(
      new Set(rows.map((r) => (r.values as Record<string, unknown>)[key(s.fields.auto.dataField)])).size,
    ).toBe(12);
    const logs = await t.db
      .selectFrom('dossier_log')
      .select('type')
      .where('content_dossier_id', 'in', ids)
      .execute();
    expect(logs.filter((l) => l.type === 'create')).toHaveLength(12);
  });

  test('a series of 999 dates in one call', async () => {
    const s = await setup();
    const created = await s.admin.post(
      URL,
      body(s, { frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 999 } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().ids).toHaveLength(999);
    expect(await countOf(s)).toBe(999);
    const tooMany = await s.admin.post(
      URL,
      body(s, { frequency: 'daily', start: '2027-01-01', end: { type: 'date', date: '2030-01-01' } }),
    );
    expect(tooMany.json()).toEqual({ errors: { recurrence: SERIES_MESSAGES.tooMany } });
    expect(
      (
        await s.admin.post(
          URL,
          body(s, { frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 1000 } }),
        )
      ).statusCode,
    ).toBe(400);
  });

  test("the spec's restrictions, a field that is not a date, a unique value, a refused value", async () => {
    const s = await setup();
    const late = await s.admin.post(
      URL,
      body(s, { frequency: 'daily', start: '2027-01-05', end: { type: 'date', date: '2027-01-01' } }),
    );
    expect(late.json()).toEqual({ errors: { recurrence: SERIES_MESSAGES.endDateOutOfRange } });
    const past = await addField(t, s.client, s.main.id, 'date', 'visit', {
      settings: { restriction: 'before_and_eq_current_date' },
    });
    const future = await s.admin.post(URL, {
      ...body(s, { frequency: 'daily', start: '2020-01-01', end: { type: 'date', date: '2999-01-01' } }),
      dateItem: past.item.id,
    });
    expect(future.json()).toEqual({ errors: { recurrence: SERIES_MESSAGES.endOrStartDateFuture } });
    const notDate = await s.admin.post(URL, {
      ...body(s, { frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 2 } }),
      dateItem: s.fields.extra.item.id,
    });
    expect(notDate.json()).toEqual({ errors: { dateItem: SERIES_MESSAGES.notADate } });
    const unique = await s.admin.post(
      URL,
      body(
        s,
        { frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 2 } },
        { [key(s.fields.name.item)]: 'Twice' },
      ),
    );
    expect(unique.json()).toEqual({ errors: { [key(s.fields.name.item)]: DOSSIER_MESSAGES.duplicate } });
    const bad = await s.admin.post(
      URL,
      body(
        s,
        { frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 2 } },
        { [key(s.fields.email.item)]: 'nope' },
      ),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual([key(s.fields.email.item)]);
    expect(await countOf(s)).toBe(0);
  });

  test('a failure while creating the 500th dossier leaves none of the series', async () => {
    const s = await setup();
    const before = await t.db
      .selectFrom('dossier_log')
      .select('id')
      .where('environment_id', '=', s.environment.id)
      .execute();
    // the 500th day from 2027-01-01
    const restore = await failDossierWrites(t.db, { valuesContain: '2028-05-14' });
    try {
      const failed = await s.admin.post(
        URL,
        body(s, { frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 999 } }),
      );
      expect(failed.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await countOf(s)).toBe(0);
    const after = await t.db
      .selectFrom('dossier_log')
      .select('id')
      .where('environment_id', '=', s.environment.id)
      .execute();
    expect(after).toHaveLength(before.length);
  });
});
