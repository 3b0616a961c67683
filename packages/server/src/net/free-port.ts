import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';

/** A port no one listens on right now, for servers that must know their address before they start. */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/**
 * A free port held until `release`: for a server whose address must be known long before it listens
 * (its configuration and the services that call it back are made first). While held, neither another
 * server nor the kernel's choice of a source port for an outgoing connection can take it, which a port
 * only found free (freePort) left open for seconds: a full e2e run once failed with EADDRINUSE.
 */
export function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    // a reservation never keeps the process alive (one left behind by a failed start)
    server.unref();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, release: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
