import { SERVICE_MESSAGES } from '@dossierbase/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body as a stream, with bounds of its own (uploads): not counted here. */
    streamsBody?: boolean;
  }
}

// A parsed JSON body costs a few times its size in memory: the raw chunks, the string, the objects.
// Bodies being read and handled share one budget of declared bytes, so that many large bodies at
// once cannot exhaust the heap; one that would overdraw it is refused at once, before a byte is
// read. Small bodies pass as long as the budget has room.
export const BODY_MEMORY_BUDGET = 32 * 1024 * 1024;

export function limitBodyMemory(app: FastifyInstance, budget: number): void {
  let reserved = 0;
  const releases = new WeakMap<FastifyRequest, () => void>();
  const release = (request: FastifyRequest) => {
    releases.get(request)?.();
    releases.delete(request);
  };

  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.routeOptions.config.streamsBody) return payload;
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    const declared = Number(request.headers['content-length'] ?? 0);
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (!(declared > 0) && !chunked) return payload;
    // Over the body limit: Fastify answers 413 without reading it.
    if (declared > limit) return payload;
    const size = declared > 0 ? declared : limit;
    if (reserved + size > budget) {
      reply.header('Retry-After', '2');
      throw new HttpError(503, { message: SERVICE_MESSAGES.busy });
    }
    reserved += size;
    let released = false;
    releases.set(request, () => {
      if (released) return;
      released = true;
      reserved -= size;
    });
    return payload;
  });
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));
}
