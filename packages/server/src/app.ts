import { CSRF_HEADER, CSRF_VALUE, SERVICE_MESSAGES } from '@dossierbase/core';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { OidcService } from './auth/oidc';
import { authRoutes } from './auth/routes';
import { type SessionClaims, SessionService } from './auth/session';
import { BODY_MEMORY_BUDGET, limitBodyMemory } from './body-memory';
import type { Config } from './config';
import { isDatabaseUnavailable } from './db/availability';
import type { Db } from './db/database';
import type { UserRow } from './db/schema';
import { answers, HttpError } from './http-errors';
import { clientErrorFromDatabase, rejectInvalidInput } from './input-guard';
import { createMailer, type Mailer } from './mail/mailer';
import { enforceRouteAccess } from './policy/route-access';
import { RealtimeRooms, serveRoomsFor } from './realtime/rooms';
import { activityRoutes } from './resources/activity/routes';
import { avatarImageRoutes, avatarRoutes } from './resources/avatar/routes';
import { configRoutes } from './resources/config/routes';
import { contactRoutes } from './resources/contact/routes';
import { contentDossierRoutes } from './resources/content-dossier/routes';
import { contentDossierListRoutes } from './resources/content-dossier-list/routes';
import { contentDossierViewRoutes } from './resources/content-dossier-view/routes';
import { dashboardRoutes } from './resources/dashboard/routes';
import { defDossierRoutes } from './resources/def-dossier/routes';
import { defDossierDefFieldRoutes } from './resources/def-dossier-def-field/routes';
import { defDossierLinkRoutes } from './resources/def-dossier-link/routes';
import { defFieldRoutes } from './resources/def-field/routes';
import { defFieldListRoutes } from './resources/def-field-list/routes';
import { displayCustomViewRoutes } from './resources/display-custom-view/routes';
import { displayItemRoutes } from './resources/display-item/routes';
import { displayPositionRoutes } from './resources/display-position/routes';
import { dossierQueryRoutes } from './resources/dossier-query/routes';
import { environmentRoutes } from './resources/environment/routes';
import { environmentTextRoutes } from './resources/environment-text/routes';
import { exportRoutes } from './resources/export/routes';
import { favouriteRoutes } from './resources/favourite/routes';
import { fileRoutes } from './resources/file/routes';
import { healthRoutes } from './resources/health/routes';
import { localeRoutes } from './resources/locale/routes';
import { logRoutes } from './resources/log/routes';
import { memberRoutes } from './resources/member/routes';
import { messageRoutes } from './resources/message/routes';
import { permissionRoutes } from './resources/permission/routes';
import { roleRoutes } from './resources/role/routes';
import { securityRoutes } from './resources/security/routes';
import { subscriptionRoutes } from './resources/subscription/routes';
import { templateRoutes } from './resources/template/routes';
import { userRoutes } from './resources/user/routes';
import { responseSerializerCompiler } from './response-serializer';
import { serveWeb } from './web';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    sessions: SessionService;
    mailer: Mailer;
    oidc: OidcService;
    realtime: RealtimeRooms;
  }
  interface FastifyRequest {
    claims?: SessionClaims | null;
    user?: UserRow;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  jwtSecret: Uint8Array;
  mailer?: Mailer;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** One log line per request, when it completes, instead of Fastify's two (received, completed). */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(...[error, request, reply]: Parameters<LogController['requestCompleted']>) {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

export async function buildApp({ config, db, jwtSecret, mailer }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    logController: new OneLinePerRequest(),
    trustProxy: config.trustProxy,
    bodyLimit: 8 * 1024 * 1024,
    // an address that is not valid percent-encoding: 400 without echoing the address (which may hold
    // anything) or Fastify's error code
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status as never).send({ message: 'Bad request' } as never);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Every route declares its answers per status code (schema.response, zod schemas of core/api). In
  // production they are serialised by the compiled serialiser (fast-json-stringify from each schema's JSON
  // Schema), without a zod parse per answer: validating every answer would cost a full walk of each
  // (dossier lists of hundreds of rows) for what the tests already prove. Tests set validateResponses:
  // each answer is checked against its zod schema too (a wrong shape fails with 500), and the compiled
  // serialiser's output must match it.
  app.setSerializerCompiler(responseSerializerCompiler(config.validateResponses));

  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('sessions', new SessionService(db, config, jwtSecret));
  app.decorate('mailer', mailer ?? createMailer(config));
  app.decorate('oidc', new OidcService(config));
  app.decorate('realtime', new RealtimeRooms());
  serveRoomsFor(db, app.realtime);
  app.decorateRequest('user', undefined);
  app.decorateRequest('claims', undefined);
  enforceRouteAccess(app);

  await app.register(cookie);
  // Security headers from one helmet middleware built at start (@fastify/helmet built a new one,
  // parsing the CSP again, on every request).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        // map tiles of the geolocation field come from their own server
        'img-src': ["'self'", 'data:', 'blob:', config.mapTileOrigin],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
      },
    },
    // Served over plain HTTP on localhost too; HSTS belongs to the TLS terminator.
    hsts: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await app.register(swagger, {
    openapi: { info: { title: 'Dossierbase API', version: config.release } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // CSRF: every unsafe method needs the header, whatever its path. onRequest runs after routing, and
  // no path test is made on the raw URL, which the router decodes (`/%61pi/...` reached /api/...).
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers[CSRF_HEADER.toLowerCase()] !== CSRF_VALUE) {
      return reply.code(403).send({ message: `The ${CSRF_HEADER} header is required` });
    }
  });
  limitBodyMemory(app, BODY_MEMORY_BUDGET);
  app.addHook('preValidation', rejectInvalidInput);

  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        errors[field] ??= issue.message ?? 'Invalid value';
      }
      return reply.code(400).send({ errors });
    }
    if (error instanceof HttpError) return reply.code(error.statusCode).send(error.body);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('Retry-After', '5')
        .send({ message: SERVICE_MESSAGES.databaseUnavailable });
    }
    const invalid = clientErrorFromDatabase(error);
    if (invalid) {
      request.log.warn({ err: error }, 'database refused a value of the request');
      return reply.code(400).send(invalid);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ message: (error as Error).message });
    }
    request.log.error(error);
    return reply.code(500).send({ message: 'Something went wrong' });
  });

  await app.register(
    async (api) => {
      await api.register(configRoutes);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(securityRoutes);
      await api.register(avatarRoutes);
      await api.register(subscriptionRoutes);
      await api.register(environmentRoutes);
      await api.register(environmentTextRoutes);
      await api.register(memberRoutes);
      await api.register(contactRoutes);
      await api.register(localeRoutes);
      await api.register(logRoutes);
      await api.register(activityRoutes);
      await api.register(templateRoutes);
      await api.register(defFieldRoutes);
      await api.register(defFieldListRoutes);
      await api.register(defDossierRoutes);
      await api.register(roleRoutes);
      await api.register(permissionRoutes);
      await api.register(defDossierDefFieldRoutes);
      await api.register(defDossierLinkRoutes);
      await api.register(displayPositionRoutes);
      await api.register(displayItemRoutes);
      await api.register(displayCustomViewRoutes);
      await api.register(dossierQueryRoutes);
      await api.register(dashboardRoutes);
      await api.register(contentDossierListRoutes);
      await api.register(contentDossierViewRoutes);
      await api.register(contentDossierRoutes);
      await api.register(exportRoutes);
      await api.register(favouriteRoutes);
      await api.register(messageRoutes);
      await api.register(fileRoutes);
      api.all('/*', { schema: { response: answers({}) } }, async (_request, reply) =>
        reply.code(404).send({ message: 'Not found' }),
      );
    },
    { prefix: '/api' },
  );
  await app.register(avatarImageRoutes);

  await serveWeb(app, config.webDist);
  return app;
}
