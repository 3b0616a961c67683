import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { fileBodySchema, fileUploadSchema, idParamSchema, UPLOAD_MESSAGES } from '@dossierbase/core';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers, badRequest, bytesAnswer } from '../../http-errors';
import { fileContent, isInlineType, openFile, presentFile, uploadFile } from './service';
import { discardReceivedFile, readUploadBody, receivedFile, removeStaleUploads } from './upload-body';
import { UploadSlots } from './upload-slots';

const idParams = z.object({ id: idParamSchema });

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  const slots = new UploadSlots(config.maxConcurrentUploads, config.maxConcurrentUploadsPerUser);
  await mkdir(config.uploadTempDir, { recursive: true });
  await removeStaleUploads(config.uploadTempDir);
  // Temporary files still being removed when the server closes are removed before it has closed.
  const removals = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.all(removals);
  });

  // JSON bodies of these routes (only the upload has one) stream to disk instead of being parsed whole.
  // Registered in this plugin, so every other route keeps Fastify's own JSON parser.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: IncomingMessage) =>
    readUploadBody(request, payload, config.uploadTempDir),
  );

  app.post(
    '/file',
    {
      schema: { body: fileUploadSchema, tags: ['file'], response: answers({ 201: fileBodySchema }) },
      // Bounded by readUploadBody and the slots, not by the general body budget.
      config: { access: 'signedIn', streamsBody: true },
      // Before a byte of the body is read: who is uploading, and is there room for one more upload?
      onRequest: async (request, reply) => {
        const user = await currentUser(request);
        const release = slots.acquire(user.id);
        if (!release)
          return reply.code(429).header('Retry-After', '5').send({ message: UPLOAD_MESSAGES.busy });
        // 'close' comes once the response is sent or the client has gone, whichever way the upload ended.
        reply.raw.once('close', () => {
          release();
          const removal = discardReceivedFile(request)
            .catch((error) => request.log.warn({ err: error }, 'temporary upload not removed'))
            .finally(() => removals.delete(removal));
          removals.add(removal);
        });
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const file = receivedFile(request);
      if (!file) throw badRequest({ file: UPLOAD_MESSAGES.dataUrl });
      return reply.code(201).send(await uploadFile(db, user, request.body, file));
    },
  );

  app.get(
    '/file/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags: ['file'], response: answers({ 200: fileBodySchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      return presentFile(await openFile(db, user, request.params.id));
    },
  );

  app.get(
    '/file/:id/download',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags: ['file'], response: answers({ 200: bytesAnswer }) },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const file = await openFile(db, user, request.params.id);
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
        .header('Content-Length', file.size)
        .send(fileContent(db, file));
    },
  );
};
