import type { AddressInfo } from 'node:net';
import type { Server } from 'restify';

/** Listens; a busy or privileged port becomes one sentence saying what to do. Returns the base URL. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolveListen, rejectListenWith) => {
    const rejectListen = (error: NodeJS.ErrnoException) =>
      rejectListenWith(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on ${host} is already in use; stop what listens there or choose another port (PORT or --port).`)
          : error.code === 'EACCES'
            ? new Error(`Port ${port} on ${host} needs privileges this process lacks; choose a port above 1023 (PORT or --port).`)
            : error,
      );
    // restify re-emits the Node server's errors on itself, where an unheard one is thrown.
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${hostPart}:${address.port}`;
}

/** Stops accepting; idle keep-alive sockets close now, busy ones after their response (10 s at most). */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    server.server.close(() => done());
    server.server.closeIdleConnections();
    setTimeout(() => server.server.closeAllConnections(), 10_000).unref();
  });
}
