import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON (throws when it is not). */
  json<T = unknown>(): T;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object or array is sent as JSON; a string as is. */
  body?: unknown;
}

export interface FakeServer {
  /** http://127.0.0.1:<port>, for a handler's or provider's configurable base URL. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A fake remote service on 127.0.0.1 that records what it receives, so a test can check
 * signatures and bodies the way the real service would. `respond` answers each request
 * (it may throw an assertion; the fake then answers 500 and the test sees it).
 *
 *   const api = await createFakeServer((req) => ({ body: { ok: true } }));
 *   ... await api.close();
 */
export async function createFakeServer(respond: (request: RecordedRequest) => FakeReply | Promise<FakeReply>): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
        json: <T>() => JSON.parse(body) as T,
      };
      requests.push(recorded);
      Promise.resolve()
        .then(() => respond(recorded))
        .then(
          (reply) => {
            const isText = typeof reply.body === 'string' || reply.body === undefined;
            const payload = reply.body === undefined ? '' : isText ? String(reply.body) : JSON.stringify(reply.body);
            const headers = { ...(isText ? {} : { 'content-type': 'application/json' }), ...(reply.headers ?? {}) };
            res.writeHead(reply.status ?? 200, headers).end(payload);
          },
          (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String((error as Error)?.message ?? error)),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
