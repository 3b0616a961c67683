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
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build's assets are named by their content's hash: a browser keeps them without asking again.
    // Asked again on every load (the default), a page's 120 modules queued its first API calls
    // behind their revalidations, 150-250 ms on the dashboard.
    // index.html (every client-side route) is always asked again: it names the assets of the build.
    setHeaders(reply, filePath) {
      const file = path.relative(webDist, filePath);
      if (file.startsWith(`assets${path.sep}`))
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      else if (file === 'index.html') reply.header('Cache-Control', 'no-cache');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/api/')) {
      return reply.code(404).send({ message: 'Not found' });
    }
    return reply.sendFile('index.html');
  });
}
