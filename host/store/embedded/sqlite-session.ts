import type { Database, Statement, Transaction } from 'better-sqlite3';
import { ArrayPathRegistry } from './array-paths.js';
import { retain } from './keep-alive.js';

export { retain };

export class StoreClosedError extends Error {
  readonly code = 'store_closed';
  constructor() {
    super('The embedded store is closed');
    this.name = 'StoreClosedError';
  }
}

/**
 * One open SQLite connection and what the collections share on it: prepared statements,
 * created tables, the array-path registry and the transaction discipline.
 *
 * better-sqlite3 is synchronous, so inside this process every port call runs to its end
 * without interleaving. Writes still run in `BEGIN IMMEDIATE` transactions: that makes a
 * read-modify-write atomic against other connections to a shared (non-exclusive) file,
 * and makes multi-statement writes (insertMany, updateMany) all or nothing.
 */
export class SqliteSession {
  private readonly statements = new Map<string, Statement>();
  private readonly tables = new Set<string>();
  private readonly arrays: ArrayPathRegistry;
  private readonly transaction: Transaction<(fn: () => unknown) => unknown>;
  private dataVersion: number;
  private closed = false;

  /** `shared`: other connections may write the file, so their array paths must be re-read. */
  constructor(
    private readonly db: Database,
    private readonly shared: boolean,
  ) {
    retain(db);
    this.arrays = new ArrayPathRegistry(db);
    this.transaction = db.transaction((fn: () => unknown) => fn());
    this.dataVersion = this.currentDataVersion();
  }

  /** The quoted table of a collection, created on first use (outside any transaction, so a rollback never undoes it). */
  table(collection: string): string {
    this.ensureOpen();
    const table = `"c_${collection}"`;
    if (!this.tables.has(collection)) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      this.tables.add(collection);
    }
    return table;
  }

  /** After a DROP TABLE: the next use creates the table again. */
  forgetTable(collection: string): void {
    this.tables.delete(collection);
  }

  prepare(sql: string): Statement {
    this.ensureOpen();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = retain(this.db.prepare(sql));
      this.statements.set(sql, statement);
    }
    return statement;
  }

  read<R>(fn: () => R): R {
    this.ensureOpen();
    this.refresh();
    return fn();
  }

  write<R>(fn: () => R): R {
    this.ensureOpen();
    let result: R;
    try {
      result = this.transaction.immediate(() => {
        this.refresh();
        return fn();
      }) as R;
    } catch (error) {
      this.arrays.settle(false);
      throw error;
    }
    this.arrays.settle(true);
    this.writesSinceCheckpoint++;
    return result;
  }

  /**
   * Copies the WAL back into the database file when something was written since the last
   * time (PASSIVE: never waits on another connection). The store calls this on a timer
   * instead of letting SQLite checkpoint inside whichever commit crosses 1,000 pages: under
   * a stream of small transactions (webhook jobs and their log lines) that moved the
   * checkpoint's page copies and fsyncs into request latency, about a quarter of an
   * insert's cost, and a page changed many times between checkpoints is copied once.
   */
  checkpoint(): void {
    if (this.closed || this.writesSinceCheckpoint === 0) return;
    this.writesSinceCheckpoint = 0;
    this.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  }
  private writesSinceCheckpoint = 0;

  /** Runs statements that cannot run in a transaction (VACUUM) or must step to their end (incremental_vacuum). */
  exec(sql: string): void {
    this.ensureOpen();
    this.db.exec(sql);
  }

  /** Runs DDL statements all or nothing. */
  ddl(statements: string[]): void {
    this.write(() => {
      for (const sql of statements) this.db.exec(sql);
    });
  }

  arrayPaths(collection: string): ReadonlySet<string> {
    return this.arrays.paths(collection);
  }

  /** Call inside `write` for every document about to be stored. */
  recordArrays(collection: string, doc: Record<string, unknown>): void {
    this.arrays.record(collection, doc);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  ensureOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }

  /** PRAGMA data_version changes when another connection commits. */
  private refresh(): void {
    if (!this.shared) return;
    const version = this.currentDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.arrays.reload();
    }
  }

  private currentDataVersion(): number {
    return this.prepare('PRAGMA data_version').pluck().get() as number;
  }
}
