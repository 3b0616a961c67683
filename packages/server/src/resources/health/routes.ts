import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { answers } from '../../http-errors';

const HEALTH_TIMEOUT_MS = 2_000;

const healthBody = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  release: z.string(),
});

/** For load balancers and people: 200 while the database answers, 503 while it does not. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], response: { ...answers({ 200: healthBody }), 503: healthBody } },
    },
    async (_request, reply) => {
      const databaseOk = await Promise.race([
        sql`select 1`.execute(app.db).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, false).unref()),
      ]);
      const state = databaseOk ? 'ok' : 'unavailable';
      return reply
        .code(databaseOk ? 200 : 503)
        .send({ status: state, database: state, release: app.config.release });
    },
  );
};
