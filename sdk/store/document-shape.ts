import { randomFillSync, randomInt } from 'node:crypto';

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

// New ids are ordered by creation, like MongoDB's ObjectIds: 4 bytes of seconds, a 3-byte
// counter of this process, then 5 random bytes. Each index is a b-tree, and an id index
// whose new keys land on random leaves dirties a different page per document: measured on
// the webhook path, random ids cost more in SQLite's commits and checkpoints than
// everything else the insert does. Ordered ids append to the tree's right edge instead.
// The random tail keeps ids of two processes apart and makes them impractical to guess
// (ids are identifiers, never credentials). Random bytes come from a pool filled 512 ids
// at a time: a call into the system's generator per document showed in profiles too.
const RANDOM_BYTES = 5;
const randomPool = Buffer.alloc(RANDOM_BYTES * 512);
let randomOffset = randomPool.length;
let counter = randomInt(0x1000000);
const idBuffer = Buffer.alloc(12);

/** A new `_id`: 24 lower-case hex characters, creation-ordered, in an ObjectId's layout. */
export function newDocumentId(): string {
  if (randomOffset === randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  counter = (counter + 1) & 0xffffff;
  idBuffer.writeUInt32BE(Math.floor(Date.now() / 1000) >>> 0, 0);
  idBuffer.writeUIntBE(counter, 4, 3);
  randomPool.copy(idBuffer, 7, randomOffset, randomOffset + RANDOM_BYTES);
  randomOffset += RANDOM_BYTES;
  return idBuffer.toString('hex');
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
