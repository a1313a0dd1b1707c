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
 * Stops accepting connections and closes the idle keep-alive ones now; resolves once the
 * busy ones have answered. The caller bounds the wait (closeAllConnections at its limit).
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    nodeServerOf(server).close(() => done());
    nodeServerOf(server).closeIdleConnections();
  });
}
