// An upload sent chunked and as fast as the socket takes it (as `curl -H 'Transfer-Encoding:
// chunked' --data-binary @-` from a pipe does), stopping once the server has answered. The
// status of that answer; a reset after an early answer counts as the 413 it followed.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ChunkedUpload {
  port: number;
  path: string;
  headers: Record<string, string>;
  totalBytes: number;
  localAddress?: string;
  /** Over TLS to 127.0.0.1, as `servername` (SNI and Host), trusting `ca`. */
  tls?: { ca: string; servername: string };
}

export function chunkedUpload(upload: ChunkedUpload): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const tls = upload.tls;
    const req = (tls ? httpsRequest : httpRequest)(
      {
        host: '127.0.0.1',
        port: upload.port,
        localAddress: upload.localAddress,
        method: 'POST',
        path: upload.path,
        agent: false,
        headers: { ...(tls ? { Host: tls.servername } : {}), ...upload.headers, 'Transfer-Encoding': 'chunked' },
        ...(tls ? { ca: tls.ca, servername: tls.servername } : {}),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(413) : reject(error),
    );
    const chunk = Buffer.alloc(256 * 1024);
    let sent = 0;
    let answered = false;
    req.once('response', () => (answered = true));
    const pump = () => {
      while (!answered && sent < upload.totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}
