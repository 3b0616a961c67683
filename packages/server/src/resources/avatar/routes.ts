import { avatarUploadSchema, idParamSchema, MAX_AVATAR_DATA_URL, profileSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers, bytesAnswer, notFound } from '../../http-errors';
import { canSeeUserOf } from '../../policy/colleague';
import { presentProfile } from '../user/present';
import { dataUrlBytes, makeAvatarImages } from './convert';
import { avatarVersion } from './present';
import { areColleagues, readAvatar, removeAvatar, saveAvatar } from './service';

/** The signed-in user's avatar: upload a picture, or remove it (under /api). */
export const avatarRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.put(
    '/user/profile/avatar',
    {
      config: { access: 'signedIn' },
      // Room for the largest picture's data URL: the schema refuses a longer one with its message.
      bodyLimit: MAX_AVATAR_DATA_URL + 64 * 1024,
      schema: { body: avatarUploadSchema, tags: ['user'], response: answers({ 200: profileSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const images = await makeAvatarImages(dataUrlBytes(request.body.image));
      return presentProfile(await saveAvatar(db, user.id, images));
    },
  );

  app.delete(
    '/user/profile/avatar',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['user'], response: answers({ 200: profileSchema }) },
    },
    async (request) => presentProfile(await removeAvatar(db, (await currentUser(request)).id)),
  );
};

// {id}_{version}_{size}.webp, as the addresses the answers carry; {id}_{size}.webp, the current one.
const AVATAR_FILE = /^(\d{1,10})(?:_([0-9a-z]{1,12}))?_(64|200)\.webp$/;

/** The avatars at /images/user/{file} (spec doc 1 section 7), for the user and their colleagues. */
export const avatarImageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/images/user/:file',
    {
      config: { access: 'signedIn' },
      schema: {
        params: z.object({ file: z.string().max(64) }),
        tags: ['user'],
        response: answers({ 200: bytesAnswer }),
      },
    },
    async (request, reply) => {
      const viewer = await currentUser(request);
      const match = AVATAR_FILE.exec(request.params.file);
      const owner = idParamSchema.safeParse(match?.[1]);
      if (!match || !owner.success) throw notFound();
      const colleagues = viewer.id !== owner.data && (await areColleagues(db, viewer.id, owner.data));
      // Another tenant's user answers as a user without an avatar does: nothing tells that they exist.
      if (!canSeeUserOf(viewer, owner.data, colleagues)) throw notFound();
      const avatar = await readAvatar(db, owner.data, match[3] === '64' ? 'small' : 'large');
      if (!avatar?.avatar_at) throw notFound();
      // A versioned address never changes its picture; the plain one does with every upload.
      const versioned = match[2] === avatarVersion(avatar.avatar_at);
      return reply
        .type('image/webp')
        .header('Cache-Control', versioned ? 'private, max-age=31536000, immutable' : 'private, no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .send(avatar.image);
    },
  );
};
