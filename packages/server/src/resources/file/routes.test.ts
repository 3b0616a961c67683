import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { addField, dossierSetup, key } from '../content-dossier/fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// The smallest valid PNG (1x1, transparent).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

describe('/api/file', () => {
  test('uploads a PNG, describes it and serves it inline to members only', async () => {
    const s = await dossierSetup(t);
    const response = await s.member.post('/api/file', {
      name: 'pixel.png',
      description: 'A pixel',
      file: dataUrl('image/png', PNG),
      environment: s.environment.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json();
    expect(file).toMatchObject({
      filename: 'pixel.png',
      description: 'A pixel',
      mime: 'image/png',
      size: PNG.length,
    });

    expect((await s.admin.get(`/api/file/${file.id}`)).json()).toMatchObject({
      id: file.id,
      mime: 'image/png',
    });
    const download = await s.admin.get(`/api/file/${file.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe('inline; filename=pixel.png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.rawPayload.equals(PNG)).toBe(true);

    // Another environment's admin learns nothing, not even that the id exists.
    expect((await s.outsider.get(`/api/file/${file.id}/download`)).statusCode).toBe(404);
    expect((await s.outsider.get(`/api/file/${file.id}`)).statusCode).toBe(404);
    expect((await s.admin.get('/api/file/999999/download')).statusCode).toBe(404);
  });

  test('the stored type comes from the bytes: HTML or SVG claimed as an image is only downloaded', async () => {
    const s = await dossierSetup(t);
    for (const [claimed, body] of [
      ['image/png', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ['text/html', '<html><script>alert(1)</script></html>'],
    ] as const) {
      const response = await s.admin.post('/api/file', {
        name: 'évil "name".html',
        file: dataUrl(claimed, Buffer.from(body)),
        environment: s.environment.id,
      });
      expect(response.statusCode, response.body).toBe(201);
      const { id, mime } = response.json();
      expect(mime).toBe('application/octet-stream');
      const download = await s.admin.get(`/api/file/${id}/download`);
      expect(download.headers['content-type']).toBe('application/octet-stream');
      expect(download.headers['content-disposition']).toMatch(/^attachment; filename="/);
    }
    const text = await s.admin.post('/api/file', {
      name: 'notes.txt',
      file: dataUrl('text/plain', Buffer.from('plain words')),
      environment: s.environment.id,
    });
    expect(text.json().mime).toBe('text/plain');
  });

  test('refuses wrong input with a message per field and foreign environments with 404', async () => {
    const s = await dossierSetup(t);
    const upload = (body: Record<string, unknown>) => s.admin.post('/api/file', body);
    const base = { name: 'a.png', file: dataUrl('image/png', PNG), environment: s.environment.id };
    expect((await upload({ ...base, file: 'not a data url' })).json().errors.file).toBe('Choose a file');
    expect((await upload({ ...base, file: 'data:image/png;base64,' })).json().errors.file).toBe(
      'Choose a file',
    );
    const big = dataUrl('application/octet-stream', Buffer.alloc(5 * 1024 * 1024 + 1));
    const tooBig = await upload({ ...base, file: big });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().errors.file).toBe('The file may be at most 5 MB');
    expect((await upload({ ...base, name: '' })).statusCode).toBe(400);
    expect((await upload({ ...base, environment: 'x' })).statusCode).toBe(400);
    expect((await upload({ ...base, environment: s.otherEnvironment.id })).statusCode).toBe(404);
    const count = await t.db
      .selectFrom('file')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('environment_id', '=', s.environment.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  test('a file field stores only files of its environment and of its allowed types', async () => {
    const s = await dossierSetup(t);
    const photo = await addField(t, s.client, s.main.id, 'file', 'photo', {
      settings: { file_types: ['images'] },
    });
    const upload = async (client: typeof s.admin, environment: number, mime: string, bytes: Buffer) =>
      (await client.post('/api/file', { name: 'f', file: dataUrl(mime, bytes), environment })).json()
        .id as number;
    const own = await upload(s.admin, s.environment.id, 'image/png', PNG);
    const text = await upload(s.admin, s.environment.id, 'text/plain', Buffer.from('words'));
    const foreign = await upload(s.outsider, s.otherEnvironment.id, 'image/png', PNG);
    const create = (value: unknown) =>
      s.admin.post('/api/contentdossier', {
        defDossier: s.client.id,
        values: { [key(s.fields.name.item)]: `Photo ${Math.random()}`, [key(photo.item)]: value },
      });
    expect((await create(own)).statusCode).toBe(201);
    const wrongType = await create(text);
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors[key(photo.item)]).toBe('This type of file is not allowed');
    const otherTenant = await create(foreign);
    expect(otherTenant.statusCode).toBe(400);
    expect(otherTenant.json().errors[key(photo.item)]).toBe('Invalid file reference');
  });
});
