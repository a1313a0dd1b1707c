// A bare node:http client: the path goes on the wire exactly as given (fetch and URL would
// normalise `..`, re-escape `%ff` or refuse odd methods), any method, any headers, any
// bytes. One connection per request, optionally from another loopback address so
// per-address throttles do not turn every later request into a 429.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query as sent, e.g. `/api/automation/v1/users/%ff?x=1`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Source address, e.g. 127.0.3.4 (anything in 127/8 reaches a loopback server on Linux). */
  localAddress?: string;
  timeoutMs?: number;
  /** Aborts the request (the suite aborts what is in flight when the host crashes). */
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  ms: number;
}

export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const base = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (error: Error | null, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(response!);
    };
    // Node's client sends a GET or DELETE body without a length (the server would read it
    // as the next request): always declare it, unless the caller chose chunked.
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    const named = (h: string) => Object.keys(headers).some((k) => k.toLowerCase() === h);
    if (req.body !== undefined && req.body.length > 0 && !named('content-length') && !named('transfer-encoding')) {
      headers['Content-Length'] = String(Buffer.byteLength(req.body));
    }
    let client: ReturnType<typeof httpRequest>;
    try {
      client = httpRequest({
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.path,
        headers,
        agent: false,
        localAddress: req.localAddress,
        signal: req.signal,
      });
    } catch (error) {
      // The client itself refused (an invalid header value...): not the server's doing.
      done(error as Error);
      return;
    }
    client.setTimeout(req.timeoutMs ?? 15_000, () => client.destroy(new Error(`no answer within ${req.timeoutMs ?? 15_000} ms`)));
    client.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done(null, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          ms: Date.now() - started,
        }),
      );
      res.on('error', (error) => done(error));
    });
    // After a response has arrived, a reset (the server closing after a 413) is not an error.
    client.on('error', (error) => done(error));
    if (req.body !== undefined && req.body.length > 0) client.end(req.body);
    else client.end();
  });
}

export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}
