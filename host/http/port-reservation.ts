import { createServer, type Server as NodeHttpServer } from 'node:http';
import { portRefusal } from './listen.js';

/**
 * The host's port, bound before anything else happens at start-up, so that a busy port
 * stops the start before the data directory, its key, the first administrator password or
 * the database are written. Until the host's server takes the socket over, every request
 * is answered 503 `host_starting` (Retry-After: 1), which is also what /readyz says then.
 */
export interface PortReservation {
  readonly port: number;
  readonly host: string;
  /** The bound server whose socket the host's server listens on (`server.listen(handle)`). */
  readonly handle: NodeHttpServer;
  /** After the take-over: this placeholder no longer owns the socket (release leaves it be). */
  handedOver(): void;
  /** Frees the port when the start failed before the take-over. */
  release(): Promise<void>;
}

const STARTING = JSON.stringify({
  success: false,
  code: 'host_starting',
  message: 'Flowhost is starting; try again in a moment.',
  data: { status: 503 },
  status: 'starting',
});

export async function reservePort(port: number, host: string): Promise<PortReservation> {
  const handle = createServer((_request, response) => {
    response.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(STARTING),
      'Retry-After': '1',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    response.end(STARTING);
  });
  await new Promise<void>((resolve, reject) => {
    handle.once('error', (error: NodeJS.ErrnoException) => reject(portRefusal(error, port, host)));
    handle.listen(port, host, () => resolve());
  });
  let owned = true;
  return {
    port,
    host,
    handle,
    handedOver() {
      owned = false;
      // Requests it accepted meanwhile are answered with Connection: close; none is kept.
      handle.closeIdleConnections();
    },
    release: () => (owned ? new Promise<void>((done) => handle.close(() => done())) : Promise.resolve()),
  };
}
