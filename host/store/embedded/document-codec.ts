import { MAX_DOCUMENT_DEPTH } from '../../../core/store/document-shape.js';
import { UnsupportedQueryError } from '../../../core/store/port.js';

/**
 * JSON with Dates kept. A Date is stored as a sentinel prefix plus its fixed-width ISO
 * time, so string order is time order: filters, sorts and expression indexes on dates
 * work in plain SQL, and reading turns the string back into a Date.
 */
export const DATE_PREFIX = '\u0001\u0002date:';
/** Sorts after every encoded date and before any other string starting with the sentinel. */
export const DATE_UPPER = '\u0001\u0002date;';
/** How the sentinel reads inside JSON text (JSON.stringify escapes control characters). */
const DATE_PREFIX_IN_JSON = JSON.stringify(DATE_PREFIX).slice(1, -1);

// toISOString is fixed width only for years 0000-9999; outside that range the text
// order would no longer be time order, so such dates are refused instead of mis-sorted.
const MIN_TIME = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');

export function encodeDate(date: Date): string {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new UnsupportedQueryError('An Invalid Date cannot be stored or compared');
  if (time < MIN_TIME || time > MAX_TIME)
    throw new UnsupportedQueryError(`Dates outside the years 0000-9999 are not supported (${date.toISOString()})`);
  return `${DATE_PREFIX}${date.toISOString()}`;
}

/** A string that would read back as a Date is refused rather than silently changed. */
export function checkString(value: string): string {
  if (value.startsWith(DATE_PREFIX)) throw new UnsupportedQueryError("Strings starting with the store's date marker cannot be stored");
  return value;
}

/** The JSON-ready form of a value: Dates encoded, `undefined` properties dropped. */
export function encodeValue(value: unknown): unknown {
  if (value instanceof Date) return encodeDate(value);
  if (typeof value === 'string') return checkString(value);
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value && typeof value === 'object') {
    // Null prototype: a key named `__proto__` is data, not the object's prototype.
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeValue(v);
    return out;
  }
  return value;
}

/** Why a document cannot be stored, found while encoding it (storableProblem's words). */
class Unstorable {
  constructor(readonly problem: string) {}
}

type Container = Record<string, unknown> | unknown[];
/** Where a walk put encoded dates, so the Dates can be put back after stringify. */
type DatesSeen = Array<[Container, string | number, Date]>;

/** Sets a field; a key named `__proto__` is data (as JSON.parse makes it), not the prototype. */
function setField(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

/**
 * encodeValue and the storability rules of `storableProblem` (core/store/document-shape.ts)
 * in one walk: every write encodes its document, and checking it in a separate walk first
 * was a sixth of the store's JavaScript time on the webhook path. What it builds is
 * stringified, then (Dates put back) answered as the stored document, so a write need not
 * parse the text it just made. It therefore follows JSON's rules: `undefined`, functions
 * and symbols are left out of objects and become null in arrays. Recursion is safe: a
 * node past MAX_DOCUMENT_DEPTH is refused before the walk goes below it.
 */
function encodeStorableNode(value: unknown, depth: number, datesSeen: DatesSeen): unknown {
  if (typeof value === 'string') return checkString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Unstorable(`the number ${value} cannot be stored`);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  // storableProblem lets a RegExp through; it has no own fields to keep.
  if (value instanceof RegExp) return {};
  if (depth + 1 > MAX_DOCUMENT_DEPTH) throw new Unstorable(`it is nested deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (child instanceof Date) {
        out[i] = encodeDate(child);
        datesSeen.push([out, i, child]);
      } else if (child === undefined || typeof child === 'function' || typeof child === 'symbol') out[i] = null;
      else out[i] = encodeStorableNode(child, depth + 1, datesSeen);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (key.includes('\u0000')) throw new Unstorable('a field name contains a NUL character');
    if (depth === 0 && key.charCodeAt(0) === 36 /* $ */) throw new Unstorable(`the top-level field '${key}' starts with '$'`);
    const child = object[key];
    if (child instanceof Date) {
      setField(out, key, encodeDate(child));
      datesSeen.push([out, key, child]);
    } else if (child !== undefined && typeof child !== 'function' && typeof child !== 'symbol')
      setField(out, key, encodeStorableNode(child, depth + 1, datesSeen));
  }
  return out;
}

/**
 * The stored text of a document and the document as it reads back (a copy: JSON's rules,
 * Dates as new Dates), or why it cannot be stored. Refuses what `storableProblem` refuses,
 * with its words (the contract suite checks the refusals); a date out of range or a string
 * with the date marker throws UnsupportedQueryError.
 */
export function encodeStorable<T>(doc: Record<string, unknown>): { text: string; stored: T } | { problem: string } {
  const datesSeen: DatesSeen = [];
  try {
    const tree = encodeStorableNode(doc, 0, datesSeen) as T;
    const text = JSON.stringify(tree);
    for (const [container, key, date] of datesSeen) (container as Record<string | number, unknown>)[key] = new Date(date.getTime());
    return { text, stored: tree };
  } catch (error) {
    if (error instanceof Unstorable) return { problem: error.problem };
    throw error;
  }
}

const asDate = (text: string): Date => new Date(text.slice(DATE_PREFIX.length));

/**
 * Turns encoded dates back into Dates, in place, in what JSON.parse made. A walk after the
 * parse, not a reviver: a reviver is a call back into JavaScript for every value, and it
 * made decoding a job twice as slow (inserts answer the decoded document too).
 */
function reviveDates(node: Record<string, unknown> | unknown[]): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const value = node[i];
      if (typeof value === 'string') {
        if (value.startsWith(DATE_PREFIX)) node[i] = asDate(value);
      } else if (value !== null && typeof value === 'object') reviveDates(value as Record<string, unknown>);
    }
    return;
  }
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (typeof value === 'string') {
      if (!value.startsWith(DATE_PREFIX)) continue;
      // A key named `__proto__` is data (as JSON.parse made it): assigning would set the prototype.
      if (key === '__proto__')
        Object.defineProperty(node, key, { value: asDate(value), writable: true, enumerable: true, configurable: true });
      else node[key] = asDate(value);
    } else if (value !== null && typeof value === 'object') reviveDates(value as Record<string, unknown>);
  }
}

export function decodeDocument<T>(text: string): T {
  const parsed = JSON.parse(text) as unknown;
  // Most documents of a page hold no date at all: no walk for them.
  if (text.includes(DATE_PREFIX_IN_JSON) && parsed !== null && typeof parsed === 'object') reviveDates(parsed as Record<string, unknown>);
  return parsed as T;
}
