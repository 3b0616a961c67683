import { PRESENCE_EVENTS } from '@dossierbase/core';
import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;
let room: number | null = null;
/** the dossier this browser tab has open (presence); opened again after every reconnect */
let viewing: number | null = null;
// Listeners of server events: kept here, so that a new connection (after a new password) hears them too.
type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();
/**
 * Told when the connection fails (true) and when it works again (false); `retrying`: socket.io tries
 * again by itself (a lost network), or not (the server refused the session).
 */
type FailureListener = (failed: boolean, retrying: boolean) => void;
const failureListeners = new Set<FailureListener>();

/** Joins the room, then opens the dossier being viewed: the server checks the room first. */
async function enterRoom(s: Socket, environmentId: number) {
  try {
    await s.timeout(10_000).emitWithAck('join', { environment: environmentId });
    if (viewing !== null) s.emit(PRESENCE_EVENTS.open, { dossier: viewing }, () => {});
  } catch {
    // no answer in time: the next reconnect joins again
  }
}

function getSocket(): Socket {
  if (!socket) {
    // socket.io reconnects by itself after a lost connection (with a growing delay)
    const s = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
    socket = s;
    // Rooms are lost on reconnect; join again.
    s.on('connect', () => {
      for (const listener of failureListeners) listener(false, true);
      if (room !== null) void enterRoom(s, room);
    });
    s.on('connect_error', () => {
      // before an environment is chosen nobody waits for events: nothing to tell
      if (room !== null) for (const listener of failureListeners) listener(true, s.active);
    });
    for (const [event, set] of listeners) for (const listener of set) s.on(event, listener);
  }
  return socket;
}

export function joinEnvironmentRoom(environmentId: number): void {
  const changed = room !== environmentId;
  room = environmentId;
  if (changed) viewing = null;
  const s = getSocket();
  if (s.connected) void enterRoom(s, environmentId);
  // A refused handshake (e.g. no session cookie yet) stops reconnecting; try again now we are signed in.
  else if (!s.active) s.connect();
}

export function disconnectRealtime(): void {
  room = null;
  viewing = null;
  socket?.disconnect();
  socket = null;
}

/** Connects again to the same room: after a new password the old connection's session has ended. */
export function reconnectRealtime(): void {
  const current = room;
  const dossier = viewing;
  disconnectRealtime();
  viewing = dossier;
  if (current !== null) joinEnvironmentRoom(current);
}

/** Listens to a server event on the socket (connected on demand); returns the way to stop listening. */
export function onRealtimeEvent<T>(event: string, listener: (payload: T) => void): () => void {
  const set = listeners.get(event) ?? new Set();
  listeners.set(event, set);
  // the server sends this event with a T
  const heard = listener as Listener;
  set.add(heard);
  getSocket().on(event, heard);
  return () => {
    set.delete(heard);
    socket?.off(event, heard);
  };
}

/** Hears when the connection fails and when it works again; returns the way to stop. */
export function onRealtimeFailure(listener: FailureListener): () => void {
  failureListeners.add(listener);
  return () => {
    failureListeners.delete(listener);
  };
}

/** This tab has the dossier open: the others who have it open see this user (presence). */
export function openDossierPresence(dossierId: number): void {
  viewing = dossierId;
  const s = getSocket();
  if (s.connected && room !== null) s.emit(PRESENCE_EVENTS.open, { dossier: dossierId }, () => {});
}

/** This tab left the dossier (the spec's dossier:exit). */
export function exitDossierPresence(dossierId: number): void {
  if (viewing !== dossierId) return;
  viewing = null;
  if (socket?.connected) socket.emit(PRESENCE_EVENTS.exit, { dossier: dossierId }, () => {});
}
