/**
 * A request answered without a socket: a Node request and response built in memory and
 * handed to the host's own request handler (`Host.handle`), so routing, authentication,
 * permissions, validation and error bodies are exactly those of HTTP. Like fastify's
 * `inject` (light-my-request), in the few lines Flowhost needs.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';

export interface InjectOptions {
  method?: string;
  /** Path and query, e.g. '/api/automation/v1/flows?per_page=5'. */
  url: string;
  headers?: Record<string, string>;
  /** JSON (any value but a string or bytes), a string as is, or raw bytes. */
  payload?: unknown;
  /** The client's address as the host sees it (default 127.0.0.1). */
  remoteAddress?: string;
}

export interface InjectResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: T;
  /** The body as sent. */
  raw: Buffer;
}

/** Takes the request and response the host answers: `Host.handle`. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** An unconnected socket that claims a peer address: no handle, no port, nothing to close. */
function fakeSocket(remoteAddress: string): Socket {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
  return socket;
}

/** Where the response's bytes go once Node has framed them: nowhere (the kit reads them from `write`). */
function nullSocket(): Socket {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return Object.assign(sink, {
    remoteAddress: '127.0.0.1',
    setTimeout: () => sink,
    setNoDelay: () => sink,
    setKeepAlive: () => sink,
    cork: () => {},
    uncork: () => {},
  }) as unknown as Socket;
}

function bodyOf(payload: unknown, headers: Record<string, string>): Buffer | null {
  if (payload === undefined) return null;
  if (Buffer.isBuffer(payload) || payload instanceof Uint8Array) return Buffer.from(payload);
  if (typeof payload === 'string') return Buffer.from(payload);
  if (!Object.keys(headers).includes('content-type')) headers['content-type'] = 'application/json';
  return Buffer.from(JSON.stringify(payload));
}

export function inject<T = unknown>(handle: RequestHandler, options: InjectOptions): Promise<InjectResponse<T>> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const body = bodyOf(options.payload, headers);
  headers.host ??= 'localhost';
  if (body) headers['content-length'] = String(body.length);

  const req = new IncomingMessage(fakeSocket(options.remoteAddress ?? '127.0.0.1'));
  req.method = (options.method ?? 'GET').toUpperCase();
  req.url = options.url;
  req.headers = headers;
  req.rawHeaders = Object.entries(headers).flat();
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  if (body) req.push(body);
  req.push(null);
  // Every byte has arrived, as the HTTP parser says once it has read the whole request.
  req.complete = true;

  return new Promise((resolve, reject) => {
    const res = new ServerResponse(req);
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
        chunks.push(Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined));
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.assignSocket(nullSocket());
    res.once('finish', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        // not JSON (a page, a file): the text as is
      }
      resolve({ status: res.statusCode, headers: res.getHeaders() as InjectResponse['headers'], body: parsed as T, raw });
    });
    res.once('error', reject);
    try {
      handle(req, res);
    } catch (error) {
      reject(error);
    }
  });
}
