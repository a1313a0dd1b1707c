import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/errors.js';
import type { RouteDefinition } from '../../core/kernel/routes.js';
import { isJsonMediaType, mediaType, parseJsonInput, phpStyleParams } from '../../core/kernel/request-input.js';

export class BodyTooLargeError extends ApiError {
  constructor(limit: number) {
    super('rest_payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413, { limit });
  }
}

/** The body came too slowly: nothing for the idle time, or not all of it in the total time. */
export class BodyTimeoutError extends ApiError {
  constructor(reason: string) {
    super('rest_request_timeout', `The request body arrived too slowly: ${reason}. Send it whole, or faster.`, 408);
  }
}

/**
 * The client went away before its body arrived (the connection closed mid-body), or sent
 * a body HTTP cannot frame (a broken chunk, which Node's parser answers 400 itself). Its
 * own doing, not the server's: nobody is left to answer, and it is logged as such, never
 * as a 500 with a stack.
 */
export class BodyAbortedError extends Error {
  constructor(override readonly cause: Error) {
    super(`The client closed the connection or broke the body's framing before the body arrived (${cause.message})`);
    this.name = 'BodyAbortedError';
  }
}

function isAbort(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'EPIPE' || code.startsWith('HPE_') || error.message === 'aborted';
}

/** How long a body may take: silence between chunks, and the whole of it. */
export interface BodyTiming {
  idleMs: number;
  /** For a body of up to 1 MiB; see `totalTimeFor`. */
  baseMs: number;
  /** A larger body gets one second more per this many bytes (its declared length, or the route's limit). */
  minBytesPerSecond: number;
}

const MIB = 1024 * 1024;

/** A chunked upload to a route that caps its own size: time it as a body this large (the host's request timeout still bounds it). */
const UNDECLARED_UPLOAD_BYTES = 256 * 1024 * 1024;

/** The body's length as its Content-Length declares it; null when it declares none (chunked). */
function declaredLength(req: IncomingMessage): number | null {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) ? declared : null;
}

/** The whole body's time: the base for 1 MiB, scaled beyond it so an honest slow upload finishes. */
export function totalTimeFor(timing: BodyTiming, bytes: number): number {
  const extra = Number.isFinite(bytes) && bytes > MIB ? ((bytes - MIB) / timing.minBytesPerSecond) * 1000 : 0;
  return Math.round(timing.baseMs + extra);
}

/**
 * Watches a body as it is read: `onExpired` is called once when no byte came for
 * `idleMs` or the body is not complete after its total time. Returns the stop function.
 * Progress is the socket's byte count, sampled: a 'data' listener would switch the request
 * to flowing mode and lose bytes before a streaming route's own reader is attached.
 */
export function watchBody(
  req: IncomingMessage,
  timing: BodyTiming,
  expectedBytes: number,
  onExpired: (error: BodyTimeoutError) => void,
): () => void {
  if (req.complete) return () => undefined;
  const total = totalTimeFor(timing, expectedBytes);
  const socket = req.socket;
  let lastBytes = socket?.bytesRead ?? 0;
  let lastProgress = Date.now();
  const expire = (reason: string) => {
    stop();
    onExpired(new BodyTimeoutError(reason));
  };
  const sample = setInterval(
    () => {
      const bytes = socket?.bytesRead ?? lastBytes;
      const now = Date.now();
      if (bytes !== lastBytes) {
        lastBytes = bytes;
        lastProgress = now;
      } else if (now - lastProgress >= timing.idleMs && !req.readableLength) {
        // Nothing new arrived and nothing waits unread in our own buffer: the client is silent.
        expire(`no data for ${Math.round(timing.idleMs / 1000)} s`);
      }
    },
    Math.max(50, Math.min(1_000, Math.floor(timing.idleMs / 4))),
  );
  const whole = setTimeout(() => expire(`not complete after ${Math.round(total / 1000)} s`), total);
  const stop = () => {
    clearInterval(sample);
    clearTimeout(whole);
    req.off('end', stop);
    req.off('close', stop);
  };
  req.once('end', stop);
  req.once('close', stop);
  return stop;
}

/**
 * Times an upload the route reads itself (`streamBody`): a body that stalls or drags fails
 * the request stream under the route's reader with a BodyTimeoutError (the answer is 408 and
 * the connection closes). Its total time is reckoned for its declared length, else the
 * route's own byte cap when it is a number, else UNDECLARED_UPLOAD_BYTES. Returns the stop function.
 */
export function watchUpload(req: IncomingMessage, timing: BodyTiming, routeLimit: RouteDefinition['bodyLimit']): () => void {
  const cap = typeof routeLimit === 'number' ? routeLimit : UNDECLARED_UPLOAD_BYTES;
  return watchBody(req, timing, declaredLength(req) ?? cap, (error) => {
    req.pause();
    req.emit('error', error);
  });
}

/**
 * Reads the raw body, refusing as soon as it passes `limit` bytes (413) or arrives too
 * slowly for `timing` (408): the rest is never buffered (the caller closes the connection
 * after answering).
 */
export function readBody(req: IncomingMessage, limit: number, timing?: BodyTiming): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== null && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const stopWatch = timing ? watchBody(req, timing, declared ?? limit, (error) => finish(error)) : () => undefined;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      stopWatch();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (error) {
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(new BodyTooLargeError(limit));
      chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onError = (error: Error) => finish(isAbort(error) ? new BodyAbortedError(error) : error);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Decodes JSON and form bodies; other content types keep only the raw bytes. */
export function decodeBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return {};
  const type = mediaType(contentType);
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return phpStyleParams(new URLSearchParams(text));
  if (type === '' || isJsonMediaType(type)) return parseJsonInput(text);
  // Some clients label JSON text/plain (to skip a CORS preflight): accept it when it parses.
  if (type === 'text/plain') {
    try {
      return parseJsonInput(text);
    } catch (error) {
      if (text.trimStart().startsWith('{') || text.trimStart().startsWith('[')) throw error;
      return {};
    }
  }
  return {};
}
