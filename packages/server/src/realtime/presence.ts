import {
  type DossierPresence,
  type DossierViewer,
  dossierIdParamSchema,
  dossierIdSchema,
  PRESENCE_EVENTS,
  type PresenceAnswer,
  personName,
} from '@dossierbase/core';
import type { FastifyInstance } from 'fastify';
import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import { readSessionUser } from '../auth/current-user';
import type { SessionClaims } from '../auth/session';
import { HttpError } from '../http-errors';
import { presentAvatar } from '../resources/avatar/present';
import { openDossier } from '../resources/content-dossier/read-model';
import { environmentRoom, viewedDossier, viewingRoom } from './rooms';

// Presence on a dossier (issue 19, point 7): a socket that has a dossier open is in the dossier's
// viewing room; after every change of who is in it, the room hears the viewers (names and avatars of
// the users, each once). fetchSockets() asks every node through the Redis adapter, so the viewers
// are the same whichever node a browser is connected to.

const openSchema = z.object({ dossier: z.union([dossierIdSchema, dossierIdParamSchema]) });

export const PRESENCE_MESSAGES = {
  invalid: 'Invalid dossier',
  noRoom: 'Join an environment first',
} as const;

/** The users with a socket in the room, as the viewers' avatars show them; who chose invisible is left out. */
export async function viewersOf(app: FastifyInstance, io: Server, room: string): Promise<DossierViewer[]> {
  const sockets = await io.in(room).fetchSockets();
  const ids = [
    ...new Set(sockets.map((s) => (s.data as { claims?: SessionClaims }).claims?.userId).filter(isId)),
  ];
  if (ids.length === 0) return [];
  const users = await app.db
    .selectFrom('app_user')
    .select(['id', 'username', 'first_name', 'preposition', 'last_name', 'avatar_at', 'private_settings'])
    .where('id', 'in', ids)
    .where('active', '=', true)
    .orderBy('id')
    .execute();
  return users
    .filter((u) => u.private_settings.presence !== 'invisible')
    .map((u) => ({ id: u.id, name: personName(u), avatar: presentAvatar(u) }));
}

const isId = (value: unknown): value is number => typeof value === 'number';

/** Sends the room's viewers to everyone in it, on every node. */
export async function announcePresence(app: FastifyInstance, io: Server, room: string) {
  const dossierId = viewedDossier(room);
  if (dossierId === null) return;
  const answer: DossierPresence = { dossierId, viewers: await viewersOf(app, io, room) };
  io.to(room).emit(PRESENCE_EVENTS.presence, answer);
}

const viewingRooms = (socket: Socket) => [...socket.rooms].filter((room) => viewedDossier(room) !== null);

/**
 * The socket leaves the dossiers it had open (but those of `keepEnvironment`, when given); their rooms
 * hear who is left.
 */
export async function leaveViewing(
  app: FastifyInstance,
  io: Server,
  socket: Socket,
  keepEnvironment?: number,
) {
  const kept = keepEnvironment === undefined ? null : `viewing:${keepEnvironment}:`;
  const rooms = viewingRooms(socket).filter((room) => kept === null || !room.startsWith(kept));
  for (const room of rooms) await socket.leave(room);
  for (const room of rooms) await announcePresence(app, io, room);
}

/** dossier:open and dossier:exit of a connected socket. */
export function servePresence(app: FastifyInstance, io: Server, socket: Socket) {
  const answer = (callback: unknown, value: PresenceAnswer) => {
    if (typeof callback === 'function') (callback as (a: PresenceAnswer) => void)(value);
  };

  socket.on(PRESENCE_EVENTS.open, async (payload: unknown, callback?: unknown) => {
    const parsed = openSchema.safeParse(payload);
    if (!parsed.success) return answer(callback, { ok: false, message: PRESENCE_MESSAGES.invalid });
    try {
      const user = await readSessionUser(app.db, socket.data.claims as SessionClaims);
      if (!user) return answer(callback, { ok: false, message: 'Not signed in' });
      // membership, the dossier's environment and the show permission, as GET /contentdossier/{id}
      const { dossier } = await openDossier(app.db, user, parsed.data.dossier, 'show');
      // only a dossier of the environment whose room the socket is in (the one the user chose)
      if (!socket.rooms.has(environmentRoom(dossier.environment_id)))
        return answer(callback, { ok: false, message: PRESENCE_MESSAGES.noRoom });
      const room = viewingRoom(dossier.environment_id, Number(dossier.id));
      if (!socket.rooms.has(room)) {
        await leaveViewing(app, io, socket);
        await socket.join(room);
      }
      await announcePresence(app, io, room);
      answer(callback, { ok: true });
    } catch (error) {
      const known = error instanceof HttpError && typeof error.body.message === 'string';
      if (!known) app.log.error({ err: error }, 'socket dossier:open failed');
      answer(callback, { ok: false, message: known ? (error.body.message as string) : 'Refused' });
    }
  });

  socket.on(PRESENCE_EVENTS.exit, async (_payload: unknown, callback?: unknown) => {
    try {
      await leaveViewing(app, io, socket);
      answer(callback, { ok: true });
    } catch (error) {
      app.log.error({ err: error }, 'socket dossier:exit failed');
      answer(callback, { ok: false, message: 'Refused' });
    }
  });

  // the rooms are still known while disconnecting; those left behind hear it once the socket is gone
  socket.on('disconnecting', () => {
    const rooms = viewingRooms(socket);
    if (rooms.length === 0) return;
    socket.once('disconnect', () => {
      for (const room of rooms)
        announcePresence(app, io, room).catch((error) =>
          app.log.warn({ err: error }, 'presence after disconnect failed'),
        );
    });
  });
}
