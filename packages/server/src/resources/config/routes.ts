import { type ClientConfig, clientConfigSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answers } from '../../http-errors';

/** Public settings the browser needs before anyone signs in. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, oidc } = app;
  app.get(
    '/config',
    {
      config: { access: 'public' },
      schema: { tags: ['config'], response: answers({ 200: clientConfigSchema }) },
    },
    async (): Promise<ClientConfig> => ({
      release: config.release,
      help_contact: config.helpContact,
      idle_limit_seconds: config.idleLimitSeconds,
      idle_prompt_seconds: config.idlePromptSeconds,
      sso: { google: oidc.enabled('google'), azure: oidc.enabled('azure') },
    }),
  );
};
