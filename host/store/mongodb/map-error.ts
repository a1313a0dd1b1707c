import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { DuplicateKeyError, UnsupportedQueryError } from '../../../core/store/port.js';

/** Server codes for "a unique index refused this write" (11001 and 12582 are legacy forms). */
const DUPLICATE_KEY_CODES = new Set([11000, 11001, 12582]);
/** An index with this name or these keys exists with other options: see createIndex. */
export const INDEX_CONFLICT_CODES = new Set([85, 86]);
/**
 * The update does not fit the stored document: $inc on a non-number (14 TypeMismatch),
 * $push / $pull on a non-array (2 BadValue), a dot path through a non-object (28
 * PathNotViable). The embedded store throws UnsupportedQueryError for these.
 */
const UNFIT_UPDATE_CODES = new Set([2, 14, 28]);

/** The first write error of a bulk write (the driver types the list as one-or-many). */
export function firstWriteError(error: MongoBulkWriteError): { code?: number; errmsg?: string; index?: number } | undefined {
  return [error.writeErrors].flat()[0];
}

function errorCode(error: unknown): number | undefined {
  if (error instanceof MongoBulkWriteError) return Number(firstWriteError(error)?.code ?? error.code);
  if (error instanceof MongoServerError) return Number(error.code);
  return undefined;
}

export function isDuplicateKey(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && DUPLICATE_KEY_CODES.has(code);
}

export function isIndexConflict(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && INDEX_CONFLICT_CODES.has(code);
}

/**
 * The index a duplicate-key error names. MongoDB's message reads
 * `E11000 duplicate key error collection: db.c index: <name> dup key: {...}`; the key's
 * values are deliberately not carried over (a unique field may hold a token).
 */
function indexOf(error: MongoServerError | MongoBulkWriteError): string {
  const message = error instanceof MongoBulkWriteError ? String(firstWriteError(error)?.errmsg ?? error.message) : error.message;
  const named = /index: (\S+) dup key/.exec(message)?.[1];
  if (named) return named;
  const pattern = (error as { keyPattern?: Record<string, unknown> }).keyPattern;
  if (pattern && Object.keys(pattern).length)
    return Object.entries(pattern)
      .map(([k, v]) => `${k.replace(/\./g, '_')}_${String(v)}`)
      .join('_');
  return 'unique';
}

/** A server message without its `{...}` parts, which quote stored values. */
function withoutValues(message: string): string {
  let out = message;
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(/\{[^{}]*\}/g, '{…}');
  }
  return out.replace(/^Plan executor error during findAndModify :: caused by :: /, '');
}

/**
 * Rethrows a driver error as the port's error where one applies: DuplicateKeyError when a
 * unique index refused the write, UnsupportedQueryError when the update does not fit.
 */
export function rethrow(collection: string, error: unknown): never {
  if (isDuplicateKey(error)) throw new DuplicateKeyError(collection, indexOf(error as MongoServerError | MongoBulkWriteError));
  const code = errorCode(error);
  if (code !== undefined && UNFIT_UPDATE_CODES.has(code)) {
    throw new UnsupportedQueryError(`MongoDB refused the operation on ${collection}: ${withoutValues((error as Error).message)}`);
  }
  throw error;
}
