import { expect, test } from 'vitest';
import { createTestDatabase } from '../test/test-app';
import { indexJobsIdle } from './query/index-jobs';
import { listDossiers } from './resources/content-dossier-list/service';
import { seedDemo } from './seed';
import { seedDemoRecords } from './seed-records';

test('the demo records: Client and Case with fields, layouts, a link and dossiers a caseworker can list', async () => {
  const database = await createTestDatabase();
  try {
    const { db } = database;
    await seedDemo(db, { adminPassword: 'admin password 123', demoPassword: 'demo password 123' });
    await seedDemoRecords(db);
    const demo = await db
      .selectFrom('app_user')
      .selectAll()
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    const entities = await db.selectFrom('def_dossier').select(['id', 'translations']).execute();
    const caseEntity = entities.find((e) => e.translations[0].name_singular === 'Case');
    const body = await listDossiers(db, demo, { defDossier: String(caseEntity?.id) });
    expect(body.pager.items).toBe(5);
    const summaries = body.results.dossiers.map((d) => d.summary);
    expect(summaries).toContain('C-1 Housing application');
    // every case is linked to its client, shown in the list's link column
    const linkColumn = body.results.items.find((i) => i.def_dossier_link !== null);
    const linked = Object.values(body.results.contents).map(
      (c) => c[String(linkColumn?.id)] as { summary: string }[],
    );
    expect(linked.every((l) => l.length === 1)).toBe(true);
    expect(linked.flat().map((l) => l.summary)).toContain('Anna de Vries');
  } finally {
    await indexJobsIdle(database.db);
    await database.close();
  }
}, 60_000);
