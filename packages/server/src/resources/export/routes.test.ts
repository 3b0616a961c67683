import { parse } from 'csv-parse/sync';
import JSZip from 'jszip';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setItemRoles } from '../../../test/entity-factories';
import { expectForbidden, expectRefused } from '../../../test/entity-test-setup';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, key } from '../content-dossier/fixture';

// Exports (issue 18, part 3): each kind with its own permission, the CSV's columns, cells and file
// name, a selection and a whole list with its filter, and never a value of an item hidden from the
// reader, in any kind.

let t: TestApp;
let s: DossierSetup;
let a: number;
let c: number;

const DATE_TIME = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;

beforeAll(async () => {
  t = await createTestApp();
  s = await dossierSetup(t);
  const create = async (values: Record<string, unknown>) => {
    const response = await s.admin.post('/api/contentdossier', { defDossier: s.client.id, values });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as number;
  };
  const [p1, p2] = s.projectsDossiers;
  a = await create({
    [key(s.fields.name.item)]: 'Quote "A"',
    [key(s.fields.notes.item)]: '<p>Hello <b>world</b></p>',
    [key(s.fields.list.item)]: s.options.red.id,
    [key(s.links.projectsItem)]: [p1, p2],
    [key(s.fields.extra.item)]: 'classified-extra',
  });
  await create({ [key(s.fields.name.item)]: 'Beta client' });
  c = await create({ [key(s.fields.name.item)]: 'Gamma client' });
});
afterAll(() => t.close());

const csvOf = (body: string) => parse(body, { bom: true }) as string[][];
const fields = (...items: { id: number }[]) => items.map((i) => `fields=${i.id}`).join('&');

describe('permissions', () => {
  test('each kind needs its own permission (or export, every kind) and show; another environment gets 404', async () => {
    const one = (kind: string) => `/api/contentdossier/${a}/export/${kind}`;
    const list = `/api/contentdossier/export/csv?defDossier=${s.client.id}`;
    const fieldList = `/api/contentdossier/export/fields?defDossier=${s.client.id}`;
    await s.grant(s.client, ['show', 'dossierlog']);
    for (const url of [one('csv'), one('pdf'), one('docx'), list, fieldList])
      expectForbidden(await s.member.get(url), `${url} without its permission`);
    await s.grant(s.client, ['show', 'export']);
    for (const url of [one('csv'), one('pdf'), one('docx'), list, fieldList])
      expect((await s.member.get(url)).statusCode, `${url} with export`).toBe(200);
    await s.grant(s.client, ['export_csv', 'export_pdf', 'export_word']);
    for (const url of [one('csv'), list]) expectForbidden(await s.member.get(url), `${url} without show`);

    await s.grant(s.client, ['show', 'export_csv']);
    expect((await s.member.get(one('csv'))).statusCode).toBe(200);
    expect((await s.member.get(list)).statusCode).toBe(200);
    expect((await s.member.get(fieldList)).statusCode).toBe(200);
    expectForbidden(await s.member.get(one('pdf')), 'pdf with csv only');
    expectForbidden(await s.member.get(one('docx')), 'docx with csv only');

    await s.grant(s.client, ['show', 'export_pdf']);
    const pdf = await s.member.get(one('pdf'));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expectForbidden(await s.member.get(one('csv')), 'csv with pdf only');

    await s.grant(s.client, ['show', 'export_word']);
    const docx = await s.member.get(one('docx'));
    expect(docx.statusCode).toBe(200);
    expect(docx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    for (const url of [one('csv'), one('pdf'), list, fieldList])
      expectRefused(await s.outsider.get(url), `outsider ${url}`);
    expect((await t.client().get(one('csv'))).statusCode).toBe(401);
  });
});

describe('CSV', () => {
  test("one dossier: the spec's header and file name, doubled quotes, '|' between values, HTML stripped or kept", async () => {
    const chosen = fields(s.fields.name.item, s.fields.notes.item, s.fields.list.item, s.links.projectsItem);
    const response = await s.admin.get(`/api/contentdossier/${a}/export/csv?${chosen}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="?${s.client.id}_Client_\\d{8}T\\d{6}\\.csv"?$`),
    );
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    expect(response.body).toContain('"Quote ""A"""');
    const [header, row, ...rest] = csvOf(response.body);
    expect(rest).toEqual([]);
    expect(header).toEqual([
      'dossier_id',
      'name',
      'notes',
      'colour',
      'projects',
      'created_by',
      'created_at',
      'modified_by',
      'modified_at',
    ]);
    expect(row.slice(0, 5)).toEqual([String(a), 'Quote "A"', 'Hello world', 'Red', 'Alpha|Beta']);
    expect(row[5]).toEqual(expect.any(String));
    expect(row[6]).toMatch(DATE_TIME);
    expect(row[8]).toMatch(DATE_TIME);

    const kept = await s.admin.get(`/api/contentdossier/${a}/export/csv?${chosen}&keepHtml=1`);
    expect(csvOf(kept.body)[1][2]).toBe('<p>Hello <b>world</b></p>');
  });

  test('a selection in its order, and a whole list with its filter, page by page', async () => {
    const name = fields(s.fields.name.item);
    const selection = await s.admin.get(
      `/api/contentdossier/export/csv?defDossier=${s.client.id}&ids=${c}&ids=${a}&ids=${s.projectsDossiers[0]}&${name}`,
    );
    expect(selection.statusCode, selection.body).toBe(200);
    // a dossier of another entity is not part of this export
    expect(csvOf(selection.body).map((r) => r[0])).toEqual(['dossier_id', String(c), String(a)]);

    const filtered = await s.admin.get(
      `/api/contentdossier/export/csv?defDossier=${s.client.id}&summary=client&${name}&page=3&limit=1`,
    );
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.headers['x-total-count']).toBe('2');
    const rows = csvOf(filtered.body).slice(1);
    expect(rows.map((r) => r[1]).sort()).toEqual(['Beta client', 'Gamma client']);

    const all = await s.admin.get(`/api/contentdossier/export/csv?defDossier=${s.client.id}&${name}`);
    expect(csvOf(all.body).length).toBe(4);
    const wrong = await s.admin.get(
      `/api/contentdossier/export/csv?defDossier=${s.client.id}&embedded=none&linkId=1`,
    );
    expect(wrong.statusCode).toBe(400);
  });
});

describe('hidden items', () => {
  test('an item hidden from the reader is in no export kind, not even when asked for', async () => {
    await setItemRoles(t.db, s.fields.extra.item.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
    await s.grant(s.client, ['show', 'export_csv', 'export_pdf', 'export_word']);
    const asked = fields(s.fields.name.item, s.fields.extra.item);

    const fieldList = await s.member.get(`/api/contentdossier/export/fields?defDossier=${s.client.id}`);
    expect(fieldList.json().results.map((f: { name: string }) => f.name)).not.toContain('extra');
    const admins = await s.admin.get(`/api/contentdossier/export/fields?defDossier=${s.client.id}`);
    expect(admins.json().results.map((f: { name: string }) => f.name)).toContain('extra');

    for (const url of [
      `/api/contentdossier/${a}/export/csv`,
      `/api/contentdossier/${a}/export/csv?${asked}`,
      `/api/contentdossier/export/csv?defDossier=${s.client.id}`,
      `/api/contentdossier/export/csv?defDossier=${s.client.id}&ids=${a}&${asked}`,
    ]) {
      const response = await s.member.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain('classified-extra');
      expect(csvOf(response.body)[0], url).not.toContain('extra');
    }
    const docx = await s.member.get(`/api/contentdossier/${a}/export/docx`);
    const xml = await (await JSZip.loadAsync(docx.rawPayload)).file('word/document.xml')?.async('string');
    expect(xml).toContain('Quote');
    expect(xml).not.toContain('classified-extra');
    // the admin's export has it: the test above is not vacuous
    const adminDocx = await s.admin.get(`/api/contentdossier/${a}/export/docx`);
    const adminXml = await (await JSZip.loadAsync(adminDocx.rawPayload))
      .file('word/document.xml')
      ?.async('string');
    expect(adminXml).toContain('classified-extra');
    await setItemRoles(t.db, s.fields.extra.item.id, 'EXCLUDE_SELECTED_ROLES', []);
  });
});

describe('a whole list of many pages', () => {
  test('streams every row once, in the list order, with its links, and the total first', async () => {
    const env = s.environment.id;
    const nameField = String(s.fields.name.dataField.id);
    // 2,345 clients more (past two pages of the export's 1,000), each linked to the first project
    const { rows: added } = await sql<{ id: string }>`insert into content_dossier
        (environment_id, def_dossier_id, summary, "values", created_by, modified_by)
      select ${env}, ${s.client.id}, 'Bulk ' || n, jsonb_build_object(${nameField}::text, 'Bulk ' || n),
        ${s.memberId}, ${s.memberId}
      from generate_series(1, 2345) as n returning id`.execute(t.db);
    await sql`insert into content_link (environment_id, link_id, parent_id, child_id, rank)
      select ${env}, ${s.links.projects.id}, d.id, ${s.projectsDossiers[0]}, 0
      from content_dossier d where d.environment_id = ${env} and d.summary like 'Bulk %'`.execute(t.db);
    const expected = await t.db
      .selectFrom('content_dossier')
      .select('id')
      .where('environment_id', '=', env)
      .where('def_dossier_id', '=', s.client.id)
      .where('archived', '=', false)
      .orderBy('id', 'desc')
      .execute();

    const all = await s.admin.get(
      `/api/contentdossier/export/csv?defDossier=${s.client.id}&${fields(s.fields.name.item, s.links.projectsItem)}`,
    );
    expect(all.statusCode, all.body).toBe(200);
    expect(all.headers['x-total-count']).toBe(String(expected.length));
    const rows = csvOf(all.body).slice(1);
    expect(rows.map((r) => r[0])).toEqual(expected.map((r) => String(r.id)));
    const bulk = rows.filter((r) => r[1].startsWith('Bulk '));
    expect(bulk).toHaveLength(added.length);
    expect(new Set(bulk.map((r) => r[2]))).toEqual(new Set(['Alpha']));
  });
});
