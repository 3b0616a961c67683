import { fileUploadSchema } from '@dossierbase/core';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { isInlineType, openFile, presentFile, uploadFile } from './service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.post('/file', { schema: { body: fileUploadSchema, tags: ['file'] } }, async (request, reply) => {
    const user = await currentUser(request);
    return reply.code(201).send(await uploadFile(db, user, request.body));
  });

  app.get('/file/:id', { schema: { params: idParams, tags: ['file'] } }, async (request) => {
    const user = await currentUser(request);
    return presentFile(await openFile(db, user, request.params.id, false));
  });

  app.get('/file/:id/download', { schema: { params: idParams, tags: ['file'] } }, async (request, reply) => {
    const user = await currentUser(request);
    const file = await openFile(db, user, request.params.id, true);
    const inline = isInlineType(file.mime);
    return reply
      .type(file.mime)
      .header(
        'Content-Disposition',
        contentDisposition(file.name, { type: inline ? 'inline' : 'attachment' }),
      )
      .header('X-Content-Type-Options', 'nosniff')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      )
      .header('Cache-Control', 'private, max-age=3600')
      .send(file.content);
  });
};
