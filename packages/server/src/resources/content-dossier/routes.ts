import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const contentDossierRoutes: FastifyPluginAsyncZod = async () => {};
