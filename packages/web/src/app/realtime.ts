import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;
let room: number | null = null;
// Listeners of server events: kept here, so that a new connection (after a new password) hears them too.
type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

function getSocket(): Socket {
  if (!socket) {
    socket = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
    // Rooms are lost on reconnect; join again.
    socket.on('connect', () => {
      if (room !== null) socket?.emit('join', { environment: room });
    });
    for (const [event, set] of listeners) for (const listener of set) socket.on(event, listener);
  }
  return socket;
}

export function joinEnvironmentRoom(environmentId: number): void {
  room = environmentId;
  const s = getSocket();
  if (s.connected) s.emit('join', { environment: environmentId });
  // A refused handshake (e.g. no session cookie yet) stops reconnecting; try again now we are signed in.
  else if (!s.active) s.connect();
}

export function disconnectRealtime(): void {
  room = null;
  socket?.disconnect();
  socket = null;
}

/** Connects again to the same room: after a new password the old connection's session has ended. */
export function reconnectRealtime(): void {
  const current = room;
  disconnectRealtime();
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
