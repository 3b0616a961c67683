import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;
let room: number | null = null;

function getSocket(): Socket {
  if (!socket) {
    socket = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
    // Rooms are lost on reconnect; join again.
    socket.on('connect', () => {
      if (room !== null) socket?.emit('join', { environment: room });
    });
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
