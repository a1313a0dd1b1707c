import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import Database, { type Database as SqliteDatabase } from 'better-sqlite3';
import {
  checkIdCount,
  UnsupportedQueryError,
  type BulkOp,
  type BulkResult,
  type Collection,
  type DocumentStore,
  type Filter,
  type StoreSpace,
} from '../../../core/store/port.js';
import { EmbeddedCollection } from './embedded-collection.js';
import { registerRegexp } from './regexp-function.js';
import type { SelectOptions } from './select-sql.js';
import { retain, SqliteSession } from './sqlite-session.js';

export { StoreClosedError } from './sqlite-session.js';

/** Another process (or another store in this one) holds the database file exclusively. */
export class StoreLockedError extends Error {
  readonly code = 'store_locked';
  constructor(readonly file: string) {
    super(`The database ${file} is held by another process`);
    this.name = 'StoreLockedError';
  }
}

export interface EmbeddedStoreOptions {
  /** A file path, or ':memory:'. */
  file: string;
  /**
   * Hold the file exclusively for the life of this store, so a second host on the same
   * data directory fails fast with StoreLockedError. The OS drops the lock when the
   * holder dies, even by SIGKILL.
   */
  exclusive?: boolean;
}

const AUTO_VACUUM_MODES: Record<number, StoreSpace['autoVacuum']> = { 0: 'none', 1: 'full', 2: 'incremental' };
const COLLECTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** How long a write waits for another connection to a shared (non-exclusive) file. */
const BUSY_TIMEOUT_MS = 5000;
/**
 * How often written pages are copied from the WAL into the database file. A checkpoint
 * blocks the event loop for as long as it copies and syncs, and under webhook load one a
 * second took about 45 ms: every request arriving then waited, and the trigger's p99 was
 * 60-95 ms. Every 100 ms the same work comes in pieces of about 5 ms (p99 40-50 ms) for
 * about a tenth more checkpoint time in all (a page changed again is copied again).
 */
const CHECKPOINT_INTERVAL_MS = 100;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** The files SQLite keeps beside the database. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * The database and its companions readable by this user only (0600), whatever the umask:
 * they hold password hashes, session nonces and all content. SQLite creates the database
 * 0644 less the umask, and each companion with the database's own mode (its unix VFS
 * copies it, and fchmods past the umask), so the database is created 0600 before SQLite
 * opens it, and files an older version left 0644 are narrowed. A file this user cannot
 * change is left to SQLite, whose own error then names the problem.
 */
function keepPrivate(file: string): void {
  try {
    closeSync(openSync(file, 'a', 0o600));
  } catch {
    return;
  }
  for (const suffix of COMPANIONS) {
    try {
      if ((statSync(file + suffix).mode & 0o777) !== 0o600) chmodSync(file + suffix, 0o600);
    } catch {
      // Absent (no WAL yet), or not ours to change.
    }
  }
}

/**
 * Opens the connection: WAL, synchronous=NORMAL (a committed write is in the WAL file
 * before the promise resolves, so it survives a killed process; not a power cut), and in
 * exclusive mode the lock taken at once, with no waiting, so a held file fails fast.
 */
function openDatabase(file: string, exclusive: boolean): SqliteDatabase {
  if (file !== ':memory:') keepPrivate(file);
  const db = retain(new Database(file, { timeout: 0 }));
  try {
    // exec(), not pragma(): pragma() prepares a Statement wrapper each call (see retain()).
    if (file !== ':memory:') {
      // auto_vacuum stays NONE: INCREMENTAL made every write about a third slower and its
      // page-at-a-time vacuum held the loop for up to a second at a time, while one VACUUM
      // of 100,000 pruned jobs took 2 s (docs/performance.md, "Retention"). Pages a prune
      // frees are reused; `flowhost prune --vacuum full` gives them back.
      if (exclusive) db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('PRAGMA journal_mode = WAL');
      if (exclusive) db.exec('BEGIN EXCLUSIVE; COMMIT');
    }
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new StoreLockedError(file);
    throw error;
  }
}

/**
 * The embedded DocumentStore: SQLite through better-sqlite3, one file, one table of JSON
 * documents per collection, the port's filters and sorts as SQL over json_extract, and
 * createIndex as expression indexes over the same expressions.
 */
export class EmbeddedStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  readonly file: string;
  readonly exclusive: boolean;
  /** Held exclusively or in memory: no other connection can write (see the port). */
  readonly singleWriter: boolean;
  private readonly session: SqliteSession;
  private checkpoints?: NodeJS.Timeout;
  private readonly collections = new Map<string, EmbeddedCollection<Record<string, unknown>>>();

  constructor(options: EmbeddedStoreOptions) {
    if (!options || typeof options.file !== 'string' || options.file.length === 0)
      throw new TypeError('openEmbeddedStore needs a file path or ":memory:"');
    this.file = options.file;
    this.exclusive = options.exclusive === true && options.file !== ':memory:';
    this.singleWriter = this.exclusive || options.file === ':memory:';
    const db = openDatabase(options.file, this.exclusive);
    try {
      registerRegexp(db);
      db.exec('CREATE TABLE IF NOT EXISTS "_sequences" (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
      this.session = new SqliteSession(db, options.file !== ':memory:' && !this.exclusive);
      if (options.file !== ':memory:') {
        // Checkpoints on a timer, off the commit path (see SqliteSession.checkpoint).
        db.exec('PRAGMA wal_autocheckpoint = 0');
        this.checkpoints = setInterval(() => {
          try {
            this.session.checkpoint();
          } catch {
            // A busy or failed checkpoint is retried on the next tick; the WAL keeps the data.
          }
        }, CHECKPOINT_INTERVAL_MS).unref();
      }
    } catch (error) {
      db.close();
      if (isBusy(error)) throw new StoreLockedError(options.file);
      throw error;
    }
  }

  collection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): Collection<T> {
    return this.embeddedCollection<T>(name);
  }

  /** Also answers `explainFind`, which the port's Collection does not have. */
  embeddedCollection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): EmbeddedCollection<T> {
    if (typeof name !== 'string' || !COLLECTION_NAME.test(name))
      throw new UnsupportedQueryError(`Invalid collection name '${String(name)}'`);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new EmbeddedCollection(this.session, name);
      this.collections.set(name, collection);
    }
    return collection as unknown as EmbeddedCollection<T>;
  }

  /** One statement, so atomic against every other caller and connection. */
  async nextId(sequence: string, count = 1): Promise<number> {
    if (typeof sequence !== 'string' || sequence.length === 0) throw new UnsupportedQueryError('A sequence needs a non-empty name');
    checkIdCount(count);
    const last = this.session.write(
      () =>
        (
          this.session
            .prepare(
              'INSERT INTO "_sequences" (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value RETURNING value',
            )
            .get(sequence, count) as { value: number }
        ).value,
    );
    return last - count + 1;
  }

  /** One transaction: every write or none (a failing write rolls back those before it). */
  async bulkWrite(ops: BulkOp[]): Promise<BulkResult[]> {
    if (!Array.isArray(ops)) throw new UnsupportedQueryError('bulkWrite needs an array of ops');
    // Tables are created outside the transaction (a rollback must not undo them).
    const steps = ops.map((op) => {
      if (!op || typeof op !== 'object') throw new UnsupportedQueryError('A bulkWrite op must be an object');
      const collection = this.embeddedCollection(op.collection);
      return { collection, table: this.session.table(collection.name), op };
    });
    if (steps.length === 0) return [];
    return this.session.write(() => steps.map(({ collection, table, op }) => collection.bulkStep(table, op)));
  }

  async ping(): Promise<void> {
    this.session.read(() => this.session.prepare('SELECT 1').get());
  }

  async collectionNames(): Promise<string[]> {
    return this.session.read(() =>
      (
        this.session
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c\\_%' ESCAPE '\\'")
          .pluck()
          .all() as string[]
      ).map((name) => name.slice(2)),
    );
  }

  /** The table (its indexes go with it) and the collection's array-path entries, in one transaction. */
  async dropCollection(name: string): Promise<void> {
    const collection = this.embeddedCollection(name);
    this.session.write(() => {
      this.session.exec(`DROP TABLE IF EXISTS "c_${collection.name}"`);
      this.session.prepare('DELETE FROM "_array_paths" WHERE collection = ?').run(collection.name);
    });
    this.session.forgetTable(collection.name);
    this.collections.delete(name);
  }

  /** The file's pages (page_count × page_size) and its free pages (the freelist). */
  async space(): Promise<StoreSpace> {
    return this.session.read(() => {
      const pragma = (name: string) => this.session.prepare(`PRAGMA ${name}`).pluck().get() as number;
      const pageSize = pragma('page_size');
      return {
        kind: 'embedded' as const,
        bytes: pragma('page_count') * pageSize,
        freeBytes: pragma('freelist_count') * pageSize,
        autoVacuum: AUTO_VACUUM_MODES[pragma('auto_vacuum')] ?? 'none',
      };
    });
  }

  /**
   * Gives free pages back to the file system. Incremental (only a file someone switched to
   * `incremental` auto_vacuum mode; the host leaves files in `none`): at most `maxPages` pages, a short write the caller repeats between
   * other work. Full: VACUUM rewrites the file (it holds the store for as long as it takes:
   * a maintenance window). When no
   * free page is left, a checkpoint that truncates the WAL, so the database file itself
   * shrinks now.
   */
  async giveSpaceBack(options: { full?: boolean; maxPages?: number }): Promise<number> {
    if (this.file === ':memory:') return 0;
    const before = (await this.space()).bytes;
    if (options.full) this.session.exec('VACUUM');
    else if ((await this.space()).autoVacuum === 'incremental') {
      const pages = Math.max(1, Math.floor(options.maxPages ?? 1000));
      this.session.write(() => this.session.exec(`PRAGMA incremental_vacuum(${pages})`));
    } else return 0;
    const after = await this.space();
    // Once, at the end: a truncating checkpoint per step synced the whole file each time
    // (steps of over a second at 100,000 jobs, docs/performance.md); the timer's own
    // checkpoints copy the steps' pages meanwhile.
    if (after.freeBytes === 0) this.session.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return Math.max(0, before - after.bytes);
  }

  /** Releases the file (and its exclusive lock). Later calls reject with StoreClosedError. */
  async close(): Promise<void> {
    if (this.checkpoints) clearInterval(this.checkpoints);
    this.session.close();
  }

  /** EXPLAIN QUERY PLAN lines of the SELECT `find(filter, options)` runs on a collection. */
  explainFind(collection: string, filter?: Filter, options?: SelectOptions): string[] {
    return this.embeddedCollection(collection).explainFind(filter, options);
  }
}

export function openEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  return new EmbeddedStore(options);
}
