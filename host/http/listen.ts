import type { AddressInfo } from 'node:net';
import { nodeServerOf, type RestifyServer as Server } from './restify-adapter.js';
import type { PortReservation } from './port-reservation.js';

/** A busy or privileged port as one sentence saying what to do; anything else as it came. */
export function portRefusal(error: NodeJS.ErrnoException, port: number, host: string): Error {
  if (error.code === 'EADDRINUSE')
    return new Error(`Port ${port} on ${host} is already in use; stop what listens there or choose another port (PORT or --port).`);
  if (error.code === 'EACCES')
    return new Error(`Port ${port} on ${host} needs privileges this process lacks; choose a port above 1023 (PORT or --port).`);
  return error;
}

/** Listens on `port`, or on the socket a reservation holds already. Returns the base URL. */
export async function listen(server: Server, port: number, host: string, reservation?: PortReservation): Promise<string> {
  await new Promise<void>((resolveListen, rejectListenWith) => {
    const rejectListen = (error: NodeJS.ErrnoException) => rejectListenWith(portRefusal(error, port, host));
    // restify re-emits the Node server's errors on itself, where an unheard one is thrown.
    server.once('error', rejectListen);
    const listening = () => {
      server.off('error', rejectListen);
      resolveListen();
    };
    // Node's listen(handle) adopts the bound socket: no moment where the port is free.
    if (reservation) server.listen(reservation.handle, listening);
    else server.listen(port, host, listening);
  });
  reservation?.handedOver();
  const address = nodeServerOf(server).address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${hostPart}:${address.port}`;
}

/**
 * Stops accepting connections and closes the keep-alive ones as each becomes idle; resolves
 * once the last is gone. The caller bounds the wait (closeAllConnections at its limit).
 *
 * Node's close() closes only the connections idle at that instant. One whose response was
 * still ending (a streamed body with a Content-Length reaches the client before the server
 * ends it) then stays open after its answer until the client's keep-alive timer or the
 * caller's bound: every stop with such a connection waited the whole bound (10 s). Node
 * tells no server-wide event when a response ends, so the idle ones are swept again every
 * SWEEP_MS until the close completes; a request that arrives on a kept connection meanwhile
 * is answered and its connection closed at the next sweep.
 */
export function closeServer(server: Server): Promise<void> {
  const node = nodeServerOf(server);
  return new Promise<void>((done) => {
    const sweep = setInterval(() => node.closeIdleConnections(), SWEEP_MS);
    node.close(() => {
      clearInterval(sweep);
      done();
    });
  });
}

const SWEEP_MS = 25;
