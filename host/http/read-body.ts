import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/errors.js';

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
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') {
    const out: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(text)) appendParam(out, key, value);
    return out;
  }
  if (type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain') {
    try {
      return JSON.parse(text);
    } catch {
      if (type === 'text/plain') return {};
      throw new ApiError('rest_invalid_json', 'Invalid JSON body passed.', 400);
    }
  }
  return {};
}

/** `a=1&a=2` and `a[]=1` become arrays, as PHP-style clients expect. */
export function appendParam(out: Record<string, string | string[]>, rawKey: string, value: string): void {
  const isList = rawKey.endsWith('[]');
  const key = isList ? rawKey.slice(0, -2) : rawKey;
  const existing = out[key];
  if (existing === undefined) out[key] = isList ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else out[key] = [existing, value];
}

export function parseQuery(url: string): Record<string, string | string[]> {
  const index = url.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (index < 0) return out;
  for (const [key, value] of new URLSearchParams(url.slice(index + 1))) appendParam(out, key, value);
  return out;
}
