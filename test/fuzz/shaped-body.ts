// Bodies as hostile and slow clients send them: chunked in pieces with gaps, past the route's
// limit, or stalled after part of a declared length. The answer (or the connection closing
// after one) is what the suite checks; the socket is always let go of within `timeoutMs`.
import { connect } from 'node:net';
import type { RawResponse } from './raw-request.js';

export type BodyShape = 'chunked-slow' | 'over-limit' | 'stalled';

export interface ShapedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  shape: BodyShape;
  /** For 'over-limit': how many bytes to send in all (chunked). */
  overBytes?: number;
  localAddress?: string;
  timeoutMs: number;
}

function parse(whole: Buffer, started: number): RawResponse | null {
  // Interim answers (100 Continue to `Expect: 100-continue`) come before the real one.
  let raw = whole;
  while (/^HTTP\/1\.1 1\d\d /.test(raw.subarray(0, 13).toString('latin1'))) {
    const end = raw.indexOf('\r\n\r\n');
    if (end < 0) return null;
    raw = raw.subarray(end + 4);
  }
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
  const length = Number(headers['content-length'] ?? NaN);
  if (Number.isFinite(length) && body.length < length) return null;
  return {
    status,
    headers,
    text: body.subarray(0, Number.isFinite(length) ? length : body.length).toString('utf8'),
    ms: Date.now() - started,
  };
}

export function sendShaped(base: string, req: ShapedRequest): Promise<RawResponse> {
  const url = new URL(base);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: req.localAddress });
    let received = Buffer.alloc(0);
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (error: Error | null, res?: RawResponse) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      if (error) reject(error);
      else resolve(res!);
    };
    timers.push(setTimeout(() => finish(new Error(`no answer within ${req.timeoutMs} ms (${req.shape})`)), req.timeoutMs));
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const res = parse(received, started);
      if (res) finish(null, res);
    });
    socket.on('error', (error) => {
      // The server may close while we still send (after its answer): the answer counts.
      const res = parse(received, started);
      if (res) finish(null, res);
      else if (!settled) finish(error);
    });
    socket.on('close', () => {
      const res = parse(received, started);
      if (res) finish(null, res);
      else finish(new Error(`connection closed without an answer (${req.shape})`));
    });
    const head = (extra: Record<string, string>) =>
      `${req.method} ${req.path} HTTP/1.1\r\nHost: ${url.host}\r\n${Object.entries({ ...req.headers, ...extra })
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n')}\r\n\r\n`;
    const chunk = (piece: Buffer) => Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    socket.once('connect', () => {
      if (req.shape === 'stalled') {
        // Part of a declared length, then silence: the server must not wait for ever.
        socket.write(head({ 'Content-Length': String(req.body.length + 16) }));
        socket.write(req.body);
        return;
      }
      socket.write(head({ 'Transfer-Encoding': 'chunked' }));
      if (req.shape === 'chunked-slow') {
        const pieces = Math.min(4, Math.max(1, req.body.length));
        const size = Math.ceil(req.body.length / pieces);
        for (let i = 0; i < pieces; i++) {
          timers.push(
            setTimeout(() => !socket.destroyed && socket.write(chunk(req.body.subarray(i * size, (i + 1) * size))), 40 * (i + 1)),
          );
        }
        timers.push(setTimeout(() => !socket.destroyed && socket.write('0\r\n\r\n'), 40 * (pieces + 1)));
        return;
      }
      // Over the limit, in 64 KiB chunks as fast as the socket takes them, until answered.
      const block = chunk(Buffer.alloc(64 * 1024, 0x20));
      let sent = 0;
      const pump = () => {
        while (!settled && !socket.destroyed && sent < (req.overBytes ?? 0)) {
          sent += 64 * 1024;
          if (!socket.write(block)) return void socket.once('drain', pump);
        }
        if (!settled && !socket.destroyed) socket.write('0\r\n\r\n');
      };
      pump();
    });
  });
}
