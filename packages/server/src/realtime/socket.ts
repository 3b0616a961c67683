import { idParamSchema, idSchema, PASSWORD_UPDATE_REQUIRED } from '@dossierbase/core';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { z } from 'zod';
import { readSessionUser } from '../auth/current-user';
import { ACCESS_COOKIE, type SessionClaims } from '../auth/session';
import { HttpError } from '../http-errors';
import { openEnvironment } from '../policy/environment';
import { mustReplacePassword } from '../policy/user';
import { announcePresence, leaveViewing, servePresence } from './presence';
import { environmentRoom, sessionRoom, userRoom } from './rooms';

const joinSchema = z.object({ environment: z.union([idSchema, idParamSchema]) });

type JoinAnswer = { ok: boolean; message?: string };

/** The answers a refused join may carry: fixed texts, never an error's own message. */
export const JOIN_MESSAGES = {
  invalid: 'Invalid environment',
  signedOut: 'Not signed in',
  refused: 'Refused',
} as const;

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined; // not percent-encoding: no token
    }
  }
  return undefined;
}

/** socket.io with one room per environment; the Redis adapter spreads events over every node. */
export async function attachRealtime(app: FastifyInstance): Promise<Server> {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  if (app.config.redisUrl) {
    // only with Redis configured: the client is about 8 MB of the server's memory
    const { createClient } = await import('redis');
    const pub = createClient({ url: app.config.redisUrl });
    const sub = pub.duplicate();
    // The clients reconnect by themselves; an unheard 'error' would end the process.
    for (const client of [pub, sub])
      client.on('error', (error: Error) => app.log.warn({ err: error }, 'Redis connection error'));
    await Promise.all([pub.connect(), sub.connect()]);
    // Nodes of one deployment share a schema; deployments (and test runs) on one Redis with schemas of
    // their own must not hear each other's rooms, whose environment ids would collide.
    io.adapter(createAdapter(pub, sub, { key: `socket.io:${app.config.databaseSchema ?? 'public'}` }));
    app.addHook('onClose', async () => {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    });
  }

  // socket.io does not wait for this promise: whatever fails here must end in next(), or the
  // rejection would go unhandled and end the process.
  io.use(async (socket, next) => {
    try {
      const token = readCookie(socket.handshake.headers.cookie, ACCESS_COOKIE);
      const claims = token ? await app.sessions.verifyAccessToken(token) : null;
      if (!claims || !(await readSessionUser(app.db, claims)))
        return next(new Error(JOIN_MESSAGES.signedOut));
      socket.data.claims = claims;
      next();
    } catch (error) {
      app.log.error({ err: error }, 'socket handshake failed');
      next(new Error(JOIN_MESSAGES.refused));
    }
  });

  io.on('connection', (socket) => {
    const claims = socket.data.claims as SessionClaims;
    void socket.join([userRoom(claims.userId), sessionRoom(claims.sessionId)]);
    socket.on('join', async (payload: unknown, callback?: unknown) => {
      // Whatever the client sends as its last argument, only a function is answered.
      const ack = typeof callback === 'function' ? (callback as (answer: JoinAnswer) => void) : undefined;
      const parsed = joinSchema.safeParse(payload);
      if (!parsed.success) return ack?.({ ok: false, message: JOIN_MESSAGES.invalid });
      const { environment } = parsed.data;
      try {
        const user = await readSessionUser(app.db, socket.data.claims as SessionClaims);
        if (!user) return ack?.({ ok: false, message: JOIN_MESSAGES.signedOut });
        // no environment's events until a key login's password is replaced, as for every call
        if (mustReplacePassword(user)) return ack?.({ ok: false, message: PASSWORD_UPDATE_REQUIRED });
        await openEnvironment(app.db, user, environment);
        const room = environmentRoom(environment);
        for (const r of socket.rooms) if (r.startsWith('environment:') && r !== room) await socket.leave(r);
        // the dossiers open in another environment are closed (joining the same one again keeps them)
        await leaveViewing(app, io, socket, environment);
        await socket.join(room);
        ack?.({ ok: true });
      } catch (error) {
        // The policy's refusals (404, inactive) are our own texts; anything else stays in the log.
        const known = error instanceof HttpError && typeof error.body.message === 'string';
        if (!known) app.log.error({ err: error }, 'socket join failed');
        ack?.({ ok: false, message: known ? (error.body.message as string) : JOIN_MESSAGES.refused });
      }
    });
    servePresence(app, io, socket);
  });

  app.addHook('onClose', async () => {
    await io.close();
  });
  app.realtime.serve(io, (room) => announcePresence(app, io, room));
  return io;
}
