import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/errors.js';
import { isJsonMediaType, mediaType, parseJsonInput, phpStyleParams } from '../../core/kernel/request-input.js';

export class BodyTooLargeError extends ApiError {
  constructor(limit: number) {
    super('rest_payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413, { limit });
  }
}

/**
 * Reads the raw body, refusing as soon as it passes `limit` bytes: the rest is never
 * buffered (the caller closes the connection after answering 413).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
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
    const onError = (error: Error) => finish(error);
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
