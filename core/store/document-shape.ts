import { randomBytes } from 'node:crypto';

/**
 * Shape rules both store adapters share, so they cannot drift apart: what counts as a
 * plain sub-document, what counts as an operator object in a filter, and new ids.
 */

/** An object that is a sub-document (not an array, Date or RegExp). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof RegExp);
}

/** `{ $gt: 1, $lt: 5 }`: every key an operator (a filter value that is not an equality). */
export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** A new `_id`: 24 lower-case hex characters, like an ObjectId's string form. */
export function newDocumentId(): string {
  return randomBytes(12).toString('hex');
}

/** Escapes text for a `$regex`, so a search matches it literally (the port's way to search). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
