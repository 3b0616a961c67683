import {
  entityPermissionSchema,
  entityPermissionsSchema,
  idParamSchema,
  permissionPutSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { presentPermission } from './present';
import { listPermissions, putPermission } from './service';

const listQuery = z.object({
  environment: idParamSchema,
  defDossier: idParamSchema.optional(),
});
const tags = ['permission'];

export const permissionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/permission',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: entityPermissionsSchema }),
        querystring: listQuery,
        tags,
        description: 'Per-role actions on entities',
      },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.query.environment);
      const rows = await listPermissions(db, request.query.environment, request.query.defDossier);
      return { results: rows.map(presentPermission) };
    },
  );

  app.put(
    '/permission',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: entityPermissionSchema }),
        body: permissionPutSchema,
        tags,
        description: "Sets a role's actions on an entity",
      },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return presentPermission(await putPermission(db, request.body));
    },
  );
};
