import { isPlainObject } from '../../../core/store/document-shape.js';
import { retain } from './keep-alive.js';
import type { Database } from 'better-sqlite3';

const KEY = /^[A-Za-z0-9_]+$/;
/** Deeper structures are still stored; only their array paths go unrecorded past this depth. */
const MAX_DEPTH = 12;

function collect(value: unknown, path: string, depth: number, out: Set<string>): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    out.add(path);
    // `items.name` reaches into an array of sub-documents: record paths below it too.
    for (const element of value) if (isPlainObject(element)) collectObject(element, path, depth + 1, out);
  } else if (isPlainObject(value)) collectObject(value, path, depth + 1, out);
}

function collectObject(object: Record<string, unknown>, prefix: string, depth: number, out: Set<string>): void {
  for (const key of Object.keys(object)) {
    const value = object[key];
    // Only arrays and sub-documents can hold an array path: scalars (most fields) cost
    // no path string and no key test. Keys a filter could never name (json-path.ts) need no entry.
    if (value === null || typeof value !== 'object' || value instanceof Date) continue;
    if (KEY.test(key)) collect(value, prefix ? `${prefix}.${key}` : key, depth, out);
  }
}

/** Dot paths (array positions left out) at which a document holds an array. */
export function arrayPathsOf(doc: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  collectObject(doc, '', 0, out);
  return out;
}

/**
 * Which field paths of each collection have ever held an array.
 *
 * MongoDB's `{tags: 'x'}` also matches an element of an array field. In SQL that is an
 * `OR EXISTS (... json_each ...)` branch, and any OR branch that an index cannot answer
 * makes SQLite drop the expression index for the whole condition. So the branch is added
 * only for paths recorded here: log levels, ids and dates keep their index, array fields
 * get element matching. Entries are written in the same transaction as the document and
 * never removed (a stale entry costs speed, never a wrong answer).
 */
export class ArrayPathRegistry {
  private readonly known = new Map<string, Set<string>>();
  /** Recorded in the open transaction, not yet known to be committed: `collection\0path`. */
  private pending = new Set<string>();
  private readonly insert;
  private readonly selectAll;

  constructor(db: Database) {
    db.exec(
      'CREATE TABLE IF NOT EXISTS "_array_paths" (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path)) WITHOUT ROWID',
    );
    this.insert = retain(db.prepare('INSERT OR IGNORE INTO "_array_paths" (collection, path) VALUES (?, ?)'));
    this.selectAll = retain(db.prepare('SELECT collection, path FROM "_array_paths"'));
    this.reload();
  }

  /** Re-reads the table (another connection may have recorded paths). */
  reload(): void {
    this.known.clear();
    for (const row of this.selectAll.all() as Array<{ collection: string; path: string }>) this.pathsOf(row.collection).add(row.path);
  }

  has(collection: string, path: string): boolean {
    return this.known.get(collection)?.has(path) ?? false;
  }

  paths(collection: string): ReadonlySet<string> {
    return this.known.get(collection) ?? new Set<string>();
  }

  /** Call inside the write transaction that stores `doc`. */
  record(collection: string, doc: Record<string, unknown>): void {
    for (const path of arrayPathsOf(doc)) {
      const key = `${collection}\u0000${path}`;
      if (this.has(collection, path) || this.pending.has(key)) continue;
      this.insert.run(collection, path);
      this.pending.add(key);
    }
  }

  /** After the transaction: keep what was committed, forget what was rolled back. */
  settle(committed: boolean): void {
    if (committed) {
      for (const key of this.pending) {
        const [collection, path] = key.split('\u0000') as [string, string];
        this.pathsOf(collection).add(path);
      }
    }
    this.pending.clear();
  }

  private pathsOf(collection: string): Set<string> {
    let set = this.known.get(collection);
    if (!set) {
      set = new Set();
      this.known.set(collection, set);
    }
    return set;
  }
}
