import { io as connect, type Socket } from 'socket.io-client';
import { ACCESS_COOKIE } from '../src/auth/session';

// socket.io clients for the realtime tests: signed in with a TestClient's session cookie, joined to an
// environment's room, and keeping every event they hear in order.

export interface Heard {
  event: string;
  payload: unknown;
}

export interface TestSocket {
  socket: Socket;
  /** every event heard so far, in order */
  heard: Heard[];
  /** the next event of that name (already heard and not yet taken, or still to come) */
  next<T = unknown>(event: string, timeoutMs?: number): Promise<T>;
  /** ask and wait for the answer (an acknowledgement) */
  ask<T = unknown>(event: string, payload: unknown): Promise<T>;
  close(): void;
}

export async function openSocket(baseUrl: string, accessToken: string | undefined): Promise<TestSocket> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: accessToken ? { cookie: `${ACCESS_COOKIE}=${accessToken}` } : {},
  });
  const heard: Heard[] = [];
  const taken = new Set<Heard>();
  const waiting: { event: string; resolve: (h: Heard) => void }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    const h = { event, payload };
    heard.push(h);
    const i = waiting.findIndex((w) => w.event === event);
    if (i >= 0) {
      taken.add(h);
      waiting.splice(i, 1)[0].resolve(h);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return {
    socket,
    heard,
    next<T>(event: string, timeoutMs = 5000) {
      const ready = heard.find((h) => h.event === event && !taken.has(h));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready.payload as T);
      }
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({
          event,
          resolve: (h) => {
            clearTimeout(timer);
            resolve(h.payload as T);
          },
        });
      });
    },
    ask<T>(event: string, payload: unknown) {
      return socket.timeout(5000).emitWithAck(event, payload) as Promise<T>;
    },
    close: () => socket.disconnect(),
  };
}

/** Opens a socket with the client's session and joins the environment's room (refused joins throw). */
export async function joinedSocket(
  baseUrl: string,
  client: { cookies: Map<string, string> },
  environmentId: number,
): Promise<TestSocket> {
  const s = await openSocket(baseUrl, client.cookies.get(ACCESS_COOKIE));
  const answer = await s.ask<{ ok: boolean; message?: string }>('join', { environment: environmentId });
  if (!answer.ok) throw new Error(`join refused: ${answer.message}`);
  return s;
}
