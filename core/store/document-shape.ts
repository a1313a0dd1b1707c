import { randomFillSync } from 'node:crypto';

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

// Random bytes for ids come from a pool filled 512 ids at a time: a call into the
// system's generator per document showed in the profile of a store-heavy request path.
const ID_BYTES = 12;
const idPool = Buffer.alloc(ID_BYTES * 512);
let idPoolOffset = idPool.length;

/** A new `_id`: 24 lower-case hex characters (96 random bits), like an ObjectId's string form. */
export function newDocumentId(): string {
  if (idPoolOffset === idPool.length) {
    randomFillSync(idPool);
    idPoolOffset = 0;
  }
  const id = idPool.toString('hex', idPoolOffset, idPoolOffset + ID_BYTES);
  idPoolOffset += ID_BYTES;
  return id;
}

/** Escapes text for a `$regex`, so a search matches it literally (the port's way to search). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** MongoDB's own nesting limit for a stored document; the embedded store keeps the same. */
export const MAX_DOCUMENT_DEPTH = 100;

/**
 * Why a value cannot be stored, or null: the rules of whichever store is stricter, so a
 * document that works on a laptop also works on MongoDB and back. Nesting past
 * MAX_DOCUMENT_DEPTH, non-finite numbers (MongoDB keeps Infinity, SQLite's JSON turns it
 * into null), NUL in a key (MongoDB refuses it) and a top-level key starting with `$`.
 * Iterative: a hostile depth cannot overflow the stack here. `startDepth`: how deep the
 * value sits in its document (a `$set` of `a.b` starts at 2).
 */
export function storableProblem(doc: unknown, startDepth = 0): string | null {
  const stack: Array<[unknown, number]> = [[doc, startDepth]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return `the number ${node} cannot be stored`;
      continue;
    }
    if (!node || typeof node !== 'object' || node instanceof Date || node instanceof RegExp) continue;
    if (depth + 1 > MAX_DOCUMENT_DEPTH) return `it is nested deeper than ${MAX_DOCUMENT_DEPTH} levels`;
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth + 1]);
      continue;
    }
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (key.includes('\u0000')) return 'a field name contains a NUL character';
      if (depth === 0 && key.startsWith('$')) return `the top-level field '${key}' starts with '$'`;
      stack.push([child, depth + 1]);
    }
  }
  return null;
}
