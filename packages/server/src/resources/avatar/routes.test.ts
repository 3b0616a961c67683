import { MAX_AVATAR_BYTES, PROFILE_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildEnvironment } from '../../../test/factories';
import { dataUrl, picture } from '../../../test/images';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const upload = (client: TestClient, image: unknown) =>
  client.request({ method: 'PUT', url: '/api/user/profile/avatar', payload: { image } as object });

async function webp(client: TestClient, path: string) {
  const response = await client.get(path);
  expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
  expect(response.headers['content-type']).toBe('image/webp');
  return sharp(response.rawPayload).metadata();
}

describe('PUT /api/user/profile/avatar', () => {
  test('a PNG becomes two square WebP images of 64 and 200 pixels, shown at the answered addresses', async () => {
    const { user, client } = await t.signIn();
    const response = await upload(client, dataUrl('image/png', await picture(640, 480)));
    expect(response.statusCode, response.body).toBe(200);
    const { avatar } = response.json();
    expect(avatar).toEqual({
      small: expect.stringMatching(new RegExp(`^/images/user/${user.id}_[0-9a-z]+_64\\.webp$`)),
      large: expect.stringMatching(new RegExp(`^/images/user/${user.id}_[0-9a-z]+_200\\.webp$`)),
    });
    expect((await client.get('/api/user/profile')).json().avatar).toEqual(avatar);
    for (const [path, size] of [
      [avatar.small, 64],
      [avatar.large, 200],
      [`/images/user/${user.id}_64.webp`, 64],
      [`/images/user/${user.id}_200.webp`, 200],
    ] as const) {
      expect(await webp(client, path), path).toMatchObject({ format: 'webp', width: size, height: size });
    }
    // the versioned address is kept by the browser; the plain one is asked again
    expect((await client.get(avatar.small)).headers['cache-control']).toContain('immutable');
    expect((await client.get(`/images/user/${user.id}_64.webp`)).headers['cache-control']).toContain(
      'no-cache',
    );
  });

  test('the metadata of a photo is dropped (its orientation applied first)', async () => {
    const { client } = await t.signIn();
    const photo = await sharp(await picture(300, 100, 'jpeg'))
      .withExif({ IFD0: { Copyright: 'secret place and camera', Orientation: '6' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const response = await upload(client, dataUrl('image/jpeg', photo));
    expect(response.statusCode, response.body).toBe(200);
    const large = await client.get(response.json().avatar.large);
    const metadata = await sharp(large.rawPayload).metadata();
    expect(metadata).toMatchObject({ width: 200, height: 200 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(large.rawPayload.includes(Buffer.from('secret place'))).toBe(false);
  });

  test('GIF and WebP pictures are accepted too', async () => {
    const { client } = await t.signIn();
    for (const format of ['gif', 'webp'] as const) {
      const response = await upload(client, dataUrl(`image/${format}`, await picture(90, 120, format)));
      expect(response.statusCode, `${format}: ${response.body}`).toBe(200);
    }
  });

  test('what is not a picture, or too large, is refused with a message; the avatar stays as it was', async () => {
    const { user, client } = await t.signIn();
    const kept = (await upload(client, dataUrl('image/png', await picture(50, 50)))).json().avatar;
    const text = Buffer.from('just some words, not a picture');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    const cut = (await picture(400, 400)).subarray(0, 200);
    const refusals: [unknown, string][] = [
      [dataUrl('image/png', text), PROFILE_MESSAGES.avatarType],
      [dataUrl('image/svg+xml', svg), PROFILE_MESSAGES.avatarType],
      [dataUrl('image/png', cut), PROFILE_MESSAGES.avatarType],
      [dataUrl('text/plain', await picture(10, 10)), PROFILE_MESSAGES.avatarType],
      ['data:image/png;base64,not*base64!', PROFILE_MESSAGES.avatarType],
      ['a picture', PROFILE_MESSAGES.avatarType],
      [dataUrl('image/png', Buffer.alloc(MAX_AVATAR_BYTES + 1, 1)), PROFILE_MESSAGES.avatarSize],
      ['', REQUIRED_MESSAGE],
      [undefined, REQUIRED_MESSAGE],
    ];
    for (const [image, message] of refusals) {
      const response = await upload(client, image);
      expect(response.statusCode, String(image).slice(0, 40)).toBe(400);
      expect(response.json(), String(image).slice(0, 40)).toEqual({ errors: { image: message } });
    }
    // decoding goes by pixels: a small file of a huge canvas is refused before it is decoded
    const canvas = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const huge = await upload(client, dataUrl('image/png', canvas));
    expect(huge.json()).toEqual({ errors: { image: PROFILE_MESSAGES.avatarPixels } });
    expect((await client.get('/api/user/profile')).json().avatar).toEqual(kept);
    expect((await client.get(`/images/user/${user.id}_64.webp`)).statusCode).toBe(200);
  });

  test('DELETE removes the avatar: the profile has none and its addresses answer 404', async () => {
    const { user, client } = await t.signIn();
    const { avatar } = (await upload(client, dataUrl('image/png', await picture(64, 64)))).json();
    const removed = await client.delete('/api/user/profile/avatar');
    expect(removed.statusCode).toBe(200);
    expect(removed.json().avatar).toBeNull();
    for (const path of [avatar.small, avatar.large, `/images/user/${user.id}_200.webp`]) {
      expect((await client.get(path)).statusCode, path).toBe(404);
    }
  });

  test('anonymous callers get 401 before the body is read', async () => {
    const anonymous = t.client();
    const response = await upload(anonymous, 'garbage');
    expect(response.statusCode).toBe(401);
    expect(response.json()).not.toHaveProperty('errors');
    expect((await anonymous.delete('/api/user/profile/avatar')).statusCode).toBe(401);
  });
});

describe('GET /images/user/{file}', () => {
  test('colleagues of a shared environment see the avatar; others, as anonymous callers, do not', async () => {
    const owner = await t.signIn();
    const colleague = await t.signIn();
    const stranger = await t.signIn();
    const superAdmin = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    await buildEnvironment(t.db, {
      members: [{ user: owner.user, credentials: ['environment-admin'] }, { user: colleague.user }],
    });
    await buildEnvironment(t.db, { members: [{ user: stranger.user }, { user: colleague.user }] });
    const { avatar } = (await upload(owner.client, dataUrl('image/png', await picture(120, 80)))).json();

    expect(await webp(colleague.client, avatar.small)).toMatchObject({ width: 64 });
    expect(await webp(superAdmin.client, avatar.large)).toMatchObject({ width: 200 });
    // a stranger is told what a user without an avatar tells: 404
    const refused = await stranger.client.get(avatar.small);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Not found' });
    // a member deactivated in the shared environment is a stranger too
    await t.db
      .updateTable('environment_user')
      .set({ active: false })
      .where('user_id', '=', colleague.user.id)
      .execute();
    expect((await colleague.client.get(avatar.small)).statusCode).toBe(404);
    const anonymous = await t.client().get(avatar.small);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).not.toBe('image/webp');
  });

  test('unknown users, sizes and names answer 404', async () => {
    const { user, client } = await t.signIn();
    await upload(client, dataUrl('image/png', await picture(10, 10)));
    for (const file of [
      '2147483000_64.webp',
      '99999999999_64.webp',
      `${user.id}_128.webp`,
      `${user.id}_64.png`,
      `${user.id}_64.webp.exe`,
      '..%2F..%2Fetc%2Fpasswd',
      `${user.id}`,
    ]) {
      expect((await client.get(`/images/user/${file}`)).statusCode, file).toBe(404);
    }
  });
});
