import type { Server } from 'socket.io';

export const environmentRoom = (environmentId: number) => `environment:${environmentId}`;
/** Every socket of a signed-in user is in their own room, so that a change about them reaches each. */
export const userRoom = (userId: number) => `user:${userId}`;
/** Every socket opened with one session (sign-in) is in its room, so that ending the session ends them. */
export const sessionRoom = (sessionId: number) => `session:${sessionId}`;
/** The sockets that have a dossier open (presence): per environment, so a member who loses it leaves them. */
export const viewingRoom = (environmentId: number, dossierId: number) =>
  `viewing:${environmentId}:${dossierId}`;
const viewingPrefix = (environmentId: number) => `viewing:${environmentId}:`;
/** The dossier id of a viewing room, or null for another room. */
export function viewedDossier(room: string): number | null {
  const match = /^viewing:\d+:(\d+)$/.exec(room);
  return match ? Number(match[1]) : null;
}

/**
 * The socket server's rooms, for calls that change who may hear an environment's events. An app
 * without a socket server (tests through inject, a node that serves no sockets) has nobody in a room.
 */
export class RealtimeRooms {
  private io: Server | null = null;
  /** Tells a viewing room's sockets who is in it now (presence.ts), after sockets left it. */
  private presenceChanged: (room: string) => Promise<void> = async () => {};

  serve(io: Server, presenceChanged?: (room: string) => Promise<void>): void {
    this.io = io;
    if (presenceChanged) this.presenceChanged = presenceChanged;
  }

  /** An event for the environment's room, on every node. */
  toEnvironment(environmentId: number, event: string, payload: unknown): void {
    this.io?.to(environmentRoom(environmentId)).emit(event, payload);
  }

  /**
   * Every socket of the user leaves the environment's room, on every node: with the Redis adapter
   * socket.io sends the leave to the other nodes too.
   */
  removeFromEnvironment(userId: number, environmentId: number): void {
    if (!this.io) return;
    this.io.in(userRoom(userId)).socketsLeave(environmentRoom(environmentId));
    // and the dossiers of the environment they had open, whose viewers then see them go
    void this.leaveViewing(userId, environmentId).catch(() => {
      // a node that does not answer in time: its sockets' rooms stay until they disconnect
    });
  }

  private async leaveViewing(userId: number, environmentId: number) {
    if (!this.io) return;
    const left = new Set<string>();
    for (const socket of await this.io.in(userRoom(userId)).fetchSockets()) {
      for (const room of socket.rooms) {
        if (!room.startsWith(viewingPrefix(environmentId))) continue;
        socket.leave(room);
        left.add(room);
      }
    }
    for (const room of left) await this.presenceChanged(room);
  }

  /** An event for every socket of the user, on every node (their unread count, say). */
  toUser(userId: number, event: string, payload: unknown): void {
    this.io?.to(userRoom(userId)).emit(event, payload);
  }

  /** The users with a socket in the environment's room, on every node (the Redis adapter asks the others). */
  async usersIn(environmentId: number): Promise<Set<number>> {
    if (!this.io) return new Set();
    const sockets = await this.io.in(environmentRoom(environmentId)).fetchSockets();
    return new Set(
      sockets.flatMap((s) => {
        const userId = (s.data as { claims?: { userId?: unknown } }).claims?.userId;
        return typeof userId === 'number' ? [userId] : [];
      }),
    );
  }

  /** Every socket opened with these sessions is disconnected, on every node (the sessions ended). */
  endSessions(sessionIds: number[]): void {
    if (sessionIds.length === 0) return;
    this.io?.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
  }
}

// The rooms of the app that serves a database, for work that happens deep in a write (the notices of a
// dossier's subscribers): per-node state keyed by the Db, as the tests run several apps in one process.
const roomsByDb = new WeakMap<object, RealtimeRooms>();
export const serveRoomsFor = (db: object, rooms: RealtimeRooms) => roomsByDb.set(db, rooms);
export const roomsOf = (db: object): RealtimeRooms | undefined => roomsByDb.get(db);
