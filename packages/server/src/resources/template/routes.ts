import type { TemplateSummary } from '@dossierbase/core';
import { MAX_INT4, templatePageSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { paginate } from '../../db/paginate';
import { answers, forbidden } from '../../http-errors';
import { canReadTemplates } from '../../policy/template';
import { escapeLike } from '../environment/service';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(204).default(9),
  page: z.coerce.number().int().min(0).max(MAX_INT4).default(0),
  name: z.string().max(200).optional(),
});

export const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  app.get(
    '/admin/template',
    {
      config: { access: 'environmentCreator' },
      schema: { querystring: listQuery, tags: ['template'], response: answers({ 200: templatePageSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      if (!canReadTemplates(user)) throw forbidden();
      const { limit, page, name } = request.query;
      let query = db.selectFrom('template');
      if (name?.trim()) query = query.where('name', 'ilike', `%${escapeLike(name.trim())}%`);
      const { rows, pager } = await paginate(
        query,
        (q) =>
          q.select(['id', 'name', 'description', 'created_at', 'translations']).orderBy(sql`lower(name)`),
        { page, limit },
      );
      const results: TemplateSummary[] = rows.map((row) => ({
        ...row,
        created_at: row.created_at.toISOString(),
      }));
      return { results, pager };
    },
  );
};
