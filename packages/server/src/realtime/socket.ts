import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import { z } from 'zod';
import { readSessionUser } from '../auth/current-user';
import { ACCESS_COOKIE, type SessionClaims } from '../auth/session';
import { openEnvironment } from '../policy/environment';

export const environmentRoom = (environmentId: number) => `environment:${environmentId}`;

const joinSchema = z.object({ environment: z.coerce.number().int().positive() });

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** socket.io with one room per environment; the Redis adapter spreads events over every node. */
export async function attachRealtime(app: FastifyInstance): Promise<Server> {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  if (app.config.redisUrl) {
    const pub = createClient({ url: app.config.redisUrl });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
    app.addHook('onClose', async () => {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    });
  }

  io.use(async (socket, next) => {
    const token = readCookie(socket.handshake.headers.cookie, ACCESS_COOKIE);
    const claims = token ? await app.sessions.verifyAccessToken(token) : null;
    if (!claims || !(await readSessionUser(app.db, claims))) return next(new Error('Not signed in'));
    socket.data.claims = claims;
    next();
  });

  io.on('connection', (socket) => {
    socket.on('join', async (payload: unknown, ack?: (answer: { ok: boolean; message?: string }) => void) => {
      try {
        const { environment } = joinSchema.parse(payload);
        const user = await readSessionUser(app.db, socket.data.claims as SessionClaims);
        if (!user) throw new Error('Not signed in');
        await openEnvironment(app.db, user, environment);
        for (const room of socket.rooms) if (room.startsWith('environment:')) await socket.leave(room);
        await socket.join(environmentRoom(environment));
        ack?.({ ok: true });
      } catch (error) {
        ack?.({ ok: false, message: error instanceof Error ? error.message : 'Refused' });
      }
    });
  });

  app.addHook('onClose', async () => {
    await io.close();
  });
  return io;
}
