import { request } from 'node:http';
import type { Readable } from 'node:stream';

/** The headers of an answer, read as `fetch`'s Headers are (names in any case). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

export interface LoopbackAnswer {
  status: number;
  ok: boolean;
  headers: AnswerHeaders;
  /** The body as JSON; `{}` when it is empty or not JSON (as the callers treated a failed `response.json()`). */
  json(): unknown;
}

export interface LoopbackRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Readable;
}

/**
 * One request from the CLI to the host on this machine, through node:http. The address
 * is the one the host wrote to host.json (plain HTTP on loopback) or the one an in-process
 * host listens on; a host serves plain HTTP only (TLS is its proxy's). node:http comes with
 * Node, while the global fetch loads undici, its web streams and TLS on first use: about
 * 40 ms of every command that calls a host, an eighth of one.
 */
export async function sendToHost(url: URL, init: LoopbackRequest): Promise<LoopbackAnswer> {
  if (url.protocol !== 'http:') throw new Error(`${url.origin} is not a host's own http:// address`);
  return new Promise<LoopbackAnswer>((resolve, reject) => {
    const headers: Record<string, string> = { ...init.headers };
    if (typeof init.body === 'string') headers['Content-Length'] = String(Buffer.byteLength(init.body));
    const outgoing = request(url, { method: init.method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const status = incoming.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status,
          ok: status >= 200 && status < 300,
          headers: {
            get: (name) => {
              const value = incoming.headers[name.toLowerCase()];
              return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
            },
          },
          json: () => parseOrEmpty(text),
        });
      });
    });
    outgoing.on('error', reject);
    if (init.body === undefined) outgoing.end();
    else if (typeof init.body === 'string') outgoing.end(init.body);
    else {
      init.body.on('error', (error) => outgoing.destroy(error));
      init.body.pipe(outgoing);
    }
  });
}

function parseOrEmpty(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}
