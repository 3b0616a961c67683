import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { currentUser, sessionClaims } from '../auth/current-user';
import { forbidden, unauthorized } from '../http-errors';
import { isSuperAdmin } from './roles';
import { canCreateEnvironment } from './user';

/**
 * Who may call a route at all, declared once per route as `config: { access }`:
 * - public: anybody (sign-in, password reset, client configuration, OIDC);
 * - signedIn: a signed-in user; the handler decides what they may see;
 * - environmentAdmin: a super admin or an environment admin of at least one environment;
 * - environmentCreator: a super admin or a contract admin, who create environments;
 * - superAdmin: super admins only.
 * The handler still makes the precise decision (admin of *this* environment, permission on *this*
 * entity); this check only keeps callers who can never pass it away from the body and its schema.
 */
export const ROUTE_ACCESS = [
  'public',
  'signedIn',
  'environmentAdmin',
  'environmentCreator',
  'superAdmin',
] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: RouteAccess;
  /** false for routes a plugin registers (docs, static web client, the /api catch-all) */
  declared: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; checked before its body is read (policy/route-access.ts). */
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every route with its access level, in registration order (HEAD twins of GET routes left out). */
    routeAccessTable: RouteAccessEntry[];
  }
}

/**
 * Routes that plugins register, which cannot declare a level themselves: the API documentation, the
 * /api catch-all that answers 404 (app.ts) and the web client's static files. All public.
 */
function pluginRouteAccess(url: string): RouteAccess | null {
  if (url === '/api/*' || url === '/api/docs' || url.startsWith('/api/docs/')) return 'public';
  if (!url.startsWith('/api/') && url !== '/api') return 'public';
  return null;
}

const administersAnEnvironment = async (request: FastifyRequest, userId: number) =>
  (await request.server.db
    .selectFrom('environment_user')
    .select('id')
    .where('user_id', '=', userId)
    .where('active', '=', true)
    .where(sql<boolean>`'environment-admin' = any(credentials)`)
    .limit(1)
    .executeTakeFirst()) !== undefined;

async function checkAccess(request: FastifyRequest, access: RouteAccess): Promise<void> {
  if (access === 'public') return;
  if (access === 'signedIn') {
    // A valid access token is enough here; the handler reads the user and checks the session is
    // open, in the same statement as the environment it needs (no extra statement per request).
    if (!(await sessionClaims(request))) throw unauthorized();
    return;
  }
  const user = await currentUser(request);
  if (isSuperAdmin(user)) return;
  if (access === 'environmentCreator' && canCreateEnvironment(user)) return;
  if (access === 'environmentAdmin' && (await administersAnEnvironment(request, user.id))) return;
  throw forbidden();
}

/**
 * Every route must declare its access level (start-up fails otherwise), and every request is
 * checked against it before its body is parsed and validated: a caller who may not use a route
 * learns nothing of its schema (401 or 403, never a 400 with field messages), and their body is
 * never read.
 */
export function enforceRouteAccess(app: FastifyInstance): void {
  const table: RouteAccessEntry[] = [];
  app.decorate('routeAccessTable', table);
  app.addHook('onRoute', (route) => {
    const declared = route.config?.access;
    const access = declared ?? pluginRouteAccess(route.url);
    const methods = [route.method].flat();
    if (!access || !ROUTE_ACCESS.includes(access)) {
      throw new Error(
        `${methods.join(',')} ${route.url}: declare who may call it, config: { access: ${ROUTE_ACCESS.map((a) => `'${a}'`).join(' | ')} }`,
      );
    }
    route.config = { ...route.config, access };
    for (const method of methods) {
      // Fastify adds a HEAD route beside every GET; it runs the same handler.
      if (method === 'HEAD' && table.some((entry) => entry.method === 'GET' && entry.url === route.url))
        continue;
      table.push({ method, url: route.url, access, declared: declared !== undefined });
    }
  });
  app.addHook('preParsing', async (request) => {
    // Every route has its level (onRoute above); only the not-found handler has none.
    await checkAccess(request, request.routeOptions.config.access ?? 'public');
  });
}
