import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const contentDossierListRoutes: FastifyPluginAsyncZod = async () => {};
