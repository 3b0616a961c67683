import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataField, buildDefField, buildDisplayItem } from '../../test/entity-factories';
import { buildDefDossier, buildEnvironment } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { dossierPartition, entityDossierPartition } from '../db/partitions';
import { scheduleFieldIndexSync, syncFieldIndexes } from './field-indexes';
import { indexJobsIdle } from './index-jobs';
import { likeContains } from './list-query';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The entity's cdx_ indexes, on its environment's partition (where every one must be). */
async function indexes(defDossierId: number) {
  const partition = await entityDossierPartition(database.db, defDossierId);
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename = ${partition} and indexname like ${`cdx\\_${defDossierId}\\_%`}
    order by indexname`.execute(database.db);
  return rows;
}

describe('syncFieldIndexes', () => {
  it('creates a partial expression index per field used in search/list views and drops unused ones', async () => {
    const { db } = database;
    const environment = await buildEnvironment(db);
    const entity = await buildDefDossier(db, environment.id);
    const make = async (type: string, settings: Record<string, unknown> = {}) =>
      buildDataField(db, entity, (await buildDefField(db, environment.id, { type, settings })).id);
    const amount = await make('amount');
    const due = await make('date');
    const status = await make('list');
    const notes = await make('textarea');
    const edited = await make('text');
    await db
      .insertInto('content_dossier')
      .values({
        environment_id: environment.id,
        def_dossier_id: entity.id,
        values: JSON.stringify({ [amount.id]: 12.5, [due.id]: '2026-01-01', [status.id]: 3 }) as never,
        created_by: null,
        modified_by: null,
      })
      .execute();
    const amountItem = await buildDisplayItem(db, entity, { dataFieldId: amount.id, view: 'list' });
    await buildDisplayItem(db, entity, { dataFieldId: due.id, view: 'search' });
    await buildDisplayItem(db, entity, { dataFieldId: status.id, view: 'advanced-search' });
    await buildDisplayItem(db, entity, { dataFieldId: notes.id, view: 'list' }); // not sortable: no index
    await buildDisplayItem(db, entity, { dataFieldId: edited.id, view: 'show/edit' }); // not a list view

    const result = await syncFieldIndexes(db, entity.id, { concurrently: database.kind !== 'pglite' });
    const name = (id: number) => `cdx_${entity.id}_${id}`;
    expect(result.created.sort()).toEqual([name(amount.id), name(due.id), name(status.id)].sort());
    const created = await indexes(entity.id);
    expect(created.map((i) => i.indexname).sort()).toEqual(
      [name(amount.id), name(due.id), name(status.id)].sort(),
    );
    const amountDef = created.find((i) => i.indexname === name(amount.id))?.indexdef ?? '';
    expect(amountDef).toContain(`'${amount.id}'`);
    expect(amountDef).toContain('numeric');
    expect(amountDef).toContain(`WHERE (def_dossier_id = ${entity.id})`);

    // idempotent
    expect(await syncFieldIndexes(db, entity.id)).toEqual({ created: [], dropped: [] });

    // the amount leaves the list view: its index goes
    await db.deleteFrom('display_item').where('id', '=', amountItem.id).execute();
    scheduleFieldIndexSync(db, entity.id, { concurrently: database.kind !== 'pglite' });
    await indexJobsIdle(db);
    expect((await indexes(entity.id)).map((i) => i.indexname).sort()).toEqual(
      [name(due.id), name(status.id)].sort(),
    );
  });

  it('the planner can use the index for the list query expression', async () => {
    const { db } = database;
    const environment = await buildEnvironment(db);
    const entity = await buildDefDossier(db, environment.id);
    const amount = await buildDataField(
      db,
      entity,
      (await buildDefField(db, environment.id, { type: 'amount' })).id,
    );
    await buildDisplayItem(db, entity, { dataFieldId: amount.id, view: 'list' });
    await syncFieldIndexes(db, entity.id);
    await sql`set enable_seqscan = off`.execute(db);
    try {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from content_dossier
        where environment_id = ${environment.id} and def_dossier_id = ${sql.lit(entity.id)} and (("values" ->> ${sql.lit(String(amount.id))})::numeric) >= 5
        order by (("values" ->> ${sql.lit(String(amount.id))})::numeric), id limit 50`.execute(db);
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(`cdx_${entity.id}_${amount.id}`);
    } finally {
      await sql`reset enable_seqscan`.execute(db);
    }
  });
});

describe('indexes per environment', () => {
  it("sit on the environment's partition: another environment's query is planned without them", async () => {
    const { db } = database;
    const [first, second] = [await buildEnvironment(db), await buildEnvironment(db)];
    const entityOf = async (environmentId: number) => {
      const entity = await buildDefDossier(db, environmentId);
      const amount = await buildDataField(
        db,
        entity,
        (await buildDefField(db, environmentId, { type: 'amount' })).id,
      );
      await buildDisplayItem(db, entity, { dataFieldId: amount.id, view: 'list' });
      await syncFieldIndexes(db, entity.id);
      return { entity, amount };
    };
    const a = await entityOf(first.id);
    const b = await entityOf(second.id);
    expect(await entityDossierPartition(db, a.entity.id)).toBe(dossierPartition(first.id));
    expect((await indexes(a.entity.id)).map((i) => i.indexname)).toEqual([
      `cdx_${a.entity.id}_${a.amount.id}`,
    ]);
    const plan = (
      await sql<{ 'QUERY PLAN': string }>`explain select id from content_dossier
        where environment_id = ${second.id} and def_dossier_id = ${b.entity.id} order by id limit 50`.execute(
        db,
      )
    ).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain(dossierPartition(second.id));
    expect(plan).not.toContain(`${dossierPartition(first.id)} `);
    expect(plan).not.toContain(`cdx_${a.entity.id}_`);
  });
});

describe('likeContains', () => {
  it('escapes wildcards', () => {
    expect(likeContains('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
