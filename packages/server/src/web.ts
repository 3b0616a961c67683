import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Serves the built web client, with index.html for every client-side route. */
export async function serveWeb(app: FastifyInstance, webDist: string | null): Promise<void> {
  if (!webDist || !existsSync(path.join(webDist, 'index.html'))) {
    app.setNotFoundHandler((_request, reply) =>
      reply.code(404).send({ message: 'Not found (the web client is not built: run npm run build)' }),
    );
    return;
  }
  await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/api/')) {
      return reply.code(404).send({ message: 'Not found' });
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
