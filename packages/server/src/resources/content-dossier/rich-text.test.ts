import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { dossierSetup, key } from './fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('rich text (Notes) images and links', () => {
  test('only raster data URLs and files of the same environment keep their source', async () => {
    const s = await dossierSetup(t);
    const upload = async (client: typeof s.admin, environment: number) => {
      const response = await client.post('/api/file', { name: 'p.png', file: PNG, environment });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as number;
    };
    const own = await upload(s.admin, s.environment.id);
    const foreign = await upload(s.outsider, s.otherEnvironment.id);
    const notes = [
      '<p>x<img src="/api/contentdossier/17/archive">',
      '<img src="/api/logout_cookie">',
      '<img src="  /api/logout_cookie">',
      '<img src="&#47;api&#47;logout_cookie">',
      '<img src="//evil.test/x.png">',
      '<img src="https://evil.test/x.png">',
      '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
      `<img src="/api/file/${foreign}/download">`,
      `<img src="/api/file/${own}/download">`,
      `<img src="${PNG}">`,
      '<a href="/api/contentdossier/17/dearchive">a</a><a href="https://example.com">b</a></p>',
    ].join('');
    const clean =
      '<p>x<img /><img /><img /><img /><img /><img /><img /><img />' +
      `<img src="/api/file/${own}/download" /><img src="${PNG}" />` +
      '<a>a</a><a href="https://example.com">b</a></p>';

    const created = await s.admin.post('/api/contentdossier', {
      defDossier: s.client.id,
      values: { [key(s.fields.name.item)]: 'A', [key(s.fields.notes.item)]: notes },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const stored = async () =>
      (
        (
          await t.db
            .selectFrom('content_dossier')
            .select('values')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).values as Record<string, unknown>
      )[String(s.fields.notes.dataField.id)];
    expect(await stored()).toBe(clean);
    const detail = await s.admin.get(`/api/contentdossier/${id}`);
    expect(detail.body).toContain(JSON.stringify(clean).slice(1, -1));
    expect(detail.body).not.toMatch(/archive"|logout_cookie|evil\.test|svg/);

    // An edit is cleaned the same way.
    const edited = await s.admin.request({
      method: 'PUT',
      url: `/api/contentdossier/${id}`,
      payload: { values: { [key(s.fields.notes.item)]: '<img src="/api/contentdossier/17/archive">ok' } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await stored()).toBe('<img />ok');
  });
});
