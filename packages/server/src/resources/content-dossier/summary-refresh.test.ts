import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayPosition,
  buildPermission,
} from '../../../test/entity-factories';
import { type AdminSetup, adminSetup } from '../../../test/entity-test-setup';
import { buildDefDossier, buildRole } from '../../../test/factories';
import { createTestApp, onPostgresServer, type TestApp, type TestClient } from '../../../test/test-app';
import { addField } from './fixture';
import { resumeSummaryRefreshes, summaryRefreshesIdle } from './summary-refresh';

// A new entity's dossiers were titled '#20' until an admin added a summary item and saved each
// dossier again (issue 13): an entity without summary items is summarised by its first text field
// that every reader may see, and when what the summaries show changes, the stored summaries follow,
// in the background for a large entity.

let t: TestApp;
let s: AdminSetup;
let env: number;
let readerRole: number;

beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
  env = s.environment.id;
  readerRole = (await buildRole(t.db, env, 'Reader')).id;
  await t.db
    .updateTable('environment_user')
    .set({ role_ids: [readerRole] })
    .where('environment_id', '=', env)
    .where('user_id', '=', s.memberId)
    .execute();
});
afterAll(async () => {
  await summaryRefreshesIdle(t.db);
  await t.close();
});

type Entity = Awaited<ReturnType<typeof buildDefDossier>>;

async function created(entity: Entity, values: Record<string, unknown>) {
  const response = await s.admin.post('/api/contentdossier', { defDossier: entity.id, values });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const stored = async (id: number) =>
  (await t.db.selectFrom('content_dossier').select('summary').where('id', '=', id).executeTakeFirstOrThrow())
    .summary;

async function shown(client: TestClient, id: number) {
  const response = await client.get(`/api/contentdossier/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().dossier.summary as string;
}

async function addSummaryItem(entity: Entity, dataField: number) {
  const response = await s.admin.post('/api/displayitem', {
    environment: env,
    defDossier: entity.id,
    defDossierDefField: dataField,
    view: 'summary',
    rank: 1,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

describe('an entity without summary items', () => {
  test('is summarised by its first text field placed in an edit view that every reader may see', async () => {
    const entity = await buildDefDossier(t.db, env, { name: 'Thing' });
    await buildPermission(t.db, entity, readerRole, ['show']);
    const main = await buildDisplayPosition(t.db, entity, { type: 'main_content', rank: 1 });
    // a text field placed nowhere (no value can be entered) comes first and is passed over
    const unplaced = await buildDefField(t.db, env, { type: 'text', name: 'unplaced' });
    await buildDataField(t.db, entity, unplaced.id, { name: 'unplaced' });
    const amount = await addField(t, entity, main.id, 'amount', 'amount');
    const code = await addField(t, entity, main.id, 'text', 'code');
    const name = await addField(t, entity, main.id, 'text', 'name');
    const id = await created(entity, {
      [code.item.id]: 'T-1',
      [name.item.id]: 'Alpha',
      [amount.item.id]: 12,
    });
    expect(await stored(id)).toBe('T-1');
    expect(await shown(s.member, id)).toBe('T-1');

    // restricted to a role, the code may not be every reader's summary: the name takes over at once
    const restricted = await s.admin.patch(`/api/displayitem/${code.item.id}`, {
      roles: [readerRole],
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
    });
    expect(restricted.statusCode, restricted.body).toBe(200);
    expect(await stored(id)).toBe('Alpha');
    expect(await shown(s.member, id)).toBe('Alpha');
    expect(await stored(await created(entity, { [code.item.id]: 'T-2', [name.item.id]: 'Beta' }))).toBe(
      'Beta',
    );

    // a summary item replaces the fall-back; without it again, the fall-back returns
    const summaryItem = await addSummaryItem(entity, amount.dataField.id);
    const withAmount = await stored(id);
    expect(withAmount).toContain('12');
    expect(withAmount).not.toContain('Alpha');
    expect((await s.admin.delete(`/api/displayitem/${summaryItem}`)).statusCode).toBe(204);
    expect(await stored(id)).toBe('Alpha');

    // lifting the restriction makes the code the first such field again
    const lifted = await s.admin.patch(`/api/displayitem/${code.item.id}`, {
      roles: [],
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(await stored(id)).toBe('T-1');
  });

  test('without a text field every reader may see, a dossier is summarised by its id', async () => {
    const entity = await buildDefDossier(t.db, env, { name: 'Numbers' });
    const main = await buildDisplayPosition(t.db, entity, { type: 'main_content', rank: 1 });
    const amount = await addField(t, entity, main.id, 'amount', 'amount');
    const id = await created(entity, { [amount.item.id]: 3 });
    expect(await stored(id)).toBe(`#${id}`);
  });
});

describe('a large entity', () => {
  async function largeEntity(count: number) {
    const entity = await buildDefDossier(t.db, env, { name: 'Large' });
    const main = await buildDisplayPosition(t.db, entity, { type: 'main_content', rank: 1 });
    const title = await addField(t, entity, main.id, 'text', 'title');
    const number = await addField(t, entity, main.id, 'text', 'number');
    const [titleKey, numberKey] = [title, number].map((f) => String(f.dataField.id));
    await sql`insert into content_dossier (environment_id, def_dossier_id, summary, "values")
      select ${env}::integer, ${entity.id}::integer, 'stale', jsonb_build_object(${titleKey}::text, 'Title ' || g,
        ${numberKey}::text, 'N' || g)
      from generate_series(1, ${count}::integer) g`.execute(t.db);
    return { entity, title, number };
  }
  const summaries = async (entity: Entity) =>
    (
      await t.db
        .selectFrom('content_dossier')
        .select(['summary', 'values'])
        .where('def_dossier_id', '=', entity.id)
        .execute()
    ).map((row) => row.summary);
  const noted = (entity: Entity) =>
    t.db.selectFrom('summary_refresh').selectAll().where('def_dossier_id', '=', entity.id).execute();

  test('has its summaries rewritten in the background after the call, noted until done', async () => {
    const { entity, number } = await largeEntity(5_001);
    if (onPostgresServer()) {
      // A dossier locked by another transaction holds the rewrite up, not the call: it answers, and
      // the rewrite is noted. (PGlite has one connection: the lock would hold everything up.)
      await t.db.transaction().execute(async (trx) => {
        await sql`select id from content_dossier where def_dossier_id = ${entity.id}::integer order by id desc limit 1 for update`.execute(
          trx,
        );
        await addSummaryItem(entity, number.dataField.id);
        expect(await noted(entity)).toHaveLength(1);
      });
    } else {
      await addSummaryItem(entity, number.dataField.id);
    }
    await summaryRefreshesIdle(t.db);
    expect(await noted(entity)).toEqual([]);
    const after = await summaries(entity);
    expect(after).toHaveLength(5_001);
    expect(after.every((summary) => /^N\d+$/.test(summary))).toBe(true);
  });

  test('a rewrite a stopped node left noted goes on at the next start', async () => {
    const { entity } = await largeEntity(20);
    await t.db
      .insertInto('summary_refresh')
      .values({ environment_id: env, def_dossier_id: entity.id, requested_at: new Date() })
      .execute();
    await resumeSummaryRefreshes(t.db);
    await summaryRefreshesIdle(t.db);
    expect(await noted(entity)).toEqual([]);
    expect((await summaries(entity)).every((summary) => /^Title \d+$/.test(summary))).toBe(true);
  });
});
