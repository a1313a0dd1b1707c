import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before any route sees them (a raw non-ASCII byte in
 * the request line, headers over 16 KB, a broken chunked body) get the same JSON error
 * body as everything else, instead of Node's bare `400` with no body.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (
      error.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
    ) {
      socket.destroy();
      return;
    }
    const [status, reason, code, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'rest_headers_too_large', 'The request line or headers are larger than 16 KB.']
        : error.code === 'HPE_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'rest_request_timeout', 'The request was not received in time.']
          : [
              400,
              'Bad Request',
              'rest_bad_request',
              'The request is not valid HTTP (for example a raw non-ASCII byte in the URL: percent-encode it).',
            ];
    const body = JSON.stringify({ code, message, data: { status } });
    // An answer to HEAD carries no body, even when the request was refused: a client reads
    // the body bytes as garbage after the response (Node 22+'s parser refuses more URLs).
    const head = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  });
}
