import { randomBytes } from 'node:crypto';
import Database, { type Database as SqliteDatabase, type Statement } from 'better-sqlite3';
import {
  DuplicateKeyError,
  UnsupportedQueryError,
  type Collection,
  type DocumentStore,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type NewDocument,
  type StoredDocument,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '../../../core/store/port.js';
import { decodeDocument, encodeDocument } from './document-codec.js';
import { filterToSql } from './filter-to-sql.js';
import { fieldExpr } from './json-path.js';
import { applyUpdate, checkUpdate, project, seedFromFilter } from './apply-update.js';

export class StoreLockedError extends Error {
  constructor(file: string) {
    super(`The database ${file} is held by another process`);
    this.name = 'StoreLockedError';
  }
}

export interface EmbeddedStoreOptions {
  /** A file path, or ':memory:'. */
  file: string;
  /** Hold the file exclusively for the life of this store (one process owns the data dir). */
  exclusive?: boolean;
}

type Doc = Record<string, unknown>;
type Row = { _id: string; doc: string };

const COLLECTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * better-sqlite3 12.x on Node 24 aborts the process (`Assertion failed: (env) != nullptr`
 * in RemoveEnvironmentCleanupHook) when the garbage collector finalizes a Statement or
 * Database wrapper (WiseLibs/better-sqlite3#1515, closed without a fix; 13.x needs
 * Node 22+, and we support Node 20 too). So no wrapper is ever left to the collector: each
 * one is kept here for the life of the process. Closing a database still releases its
 * SQLite memory; only the small JS wrappers stay. Statements are cached per query shape,
 * so a long-running host prepares a bounded set.
 */
const keepAlive: unknown[] = [];

function newId(): string {
  return randomBytes(12).toString('hex');
}

function orderBy(sort: Record<string, 1 | -1> | undefined): string {
  if (!sort || Object.keys(sort).length === 0) return '';
  return ` ORDER BY ${Object.entries(sort)
    .map(([path, dir]) => {
      if (dir !== 1 && dir !== -1) throw new UnsupportedQueryError(`Sort direction for '${path}' must be 1 or -1`);
      return `${fieldExpr(path)} ${dir === 1 ? 'ASC' : 'DESC'}`;
    })
    .join(', ')}`;
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new UnsupportedQueryError(`${name} must be a non-negative integer`);
  return value;
}

/**
 * The embedded DocumentStore: SQLite through better-sqlite3, WAL, one table of JSON
 * documents per collection. better-sqlite3 is synchronous, so every port call runs to the
 * end without interleaving: a read-modify-write inside one call is atomic in-process,
 * and exclusive mode keeps other processes out.
 */
export class EmbeddedStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  private readonly db: SqliteDatabase;
  private readonly statements = new Map<string, Statement>();
  private readonly tables = new Set<string>();
  private readonly collections = new Map<string, EmbeddedCollection<Doc>>();
  private closed = false;

  constructor(readonly options: EmbeddedStoreOptions) {
    const db = new Database(options.file);
    keepAlive.push(db);
    try {
      // exec(), not pragma(): pragma() prepares a Statement wrapper each call (see keepAlive).
      db.exec('PRAGMA busy_timeout = 0');
      if (options.exclusive) db.exec('PRAGMA locking_mode = EXCLUSIVE');
      if (options.file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = NORMAL');
      if (options.exclusive) db.exec('BEGIN EXCLUSIVE; COMMIT;'); // take the lock now, not at the first write
      db.exec('PRAGMA busy_timeout = 5000');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY') || /locked|busy/i.test((error as Error).message)) throw new StoreLockedError(options.file);
      throw error;
    }
    const regexCache = new Map<string, RegExp>();
    db.function('flowhost_regexp', { deterministic: true }, (source: unknown, flags: unknown, value: unknown) => {
      if (typeof value !== 'string') return 0;
      const key = `${String(flags)}/${String(source)}`;
      let re = regexCache.get(key);
      if (!re) {
        re = new RegExp(String(source), String(flags));
        if (regexCache.size > 500) regexCache.clear();
        regexCache.set(key, re);
      }
      return re.test(value) ? 1 : 0;
    });
    db.exec('CREATE TABLE IF NOT EXISTS "_sequences" (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
    this.db = db;
  }

  collection<T extends Record<string, unknown> = Record<string, unknown>>(name: string): Collection<T> {
    if (!COLLECTION_NAME.test(name)) throw new UnsupportedQueryError(`Invalid collection name '${name}'`);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new EmbeddedCollection(this, name);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  async nextId(sequence: string): Promise<number> {
    const row = this.prepare(
      'INSERT INTO "_sequences" (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value',
    ).get(sequence) as { value: number };
    return row.value;
  }

  async ping(): Promise<void> {
    this.ensureOpen();
    this.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  /** @internal */
  prepare(sql: string): Statement {
    this.ensureOpen();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      keepAlive.push(statement);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** @internal */
  transaction<R>(fn: () => R): R {
    this.ensureOpen();
    this.runInTransaction ??= this.db.transaction((body: () => unknown) => body());
    return this.runInTransaction(fn) as R;
  }

  private runInTransaction: ((body: () => unknown) => unknown) | undefined;

  /** @internal */
  ensureTable(name: string): string {
    const table = `"c_${name}"`;
    if (!this.tables.has(name)) {
      this.ensureOpen();
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      this.tables.add(name);
    }
    return table;
  }

  /** @internal */
  exec(sql: string): void {
    this.ensureOpen();
    this.db.exec(sql);
  }

  private ensureOpen(): void {
    if (this.closed) throw new Error('The embedded store is closed');
  }
}

/** Maps SQLite unique violations to the port's DuplicateKeyError. */
function mapError(collection: string, error: unknown): never {
  const e = error as { code?: string; message?: string };
  if (e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    const index = /index '([^']+)'/.exec(e.message ?? '')?.[1] ?? (/\._id/.test(e.message ?? '') ? '_id_' : 'unique');
    throw new DuplicateKeyError(collection, index.replace(new RegExp(`^c_${collection}__`), ''));
  }
  throw error;
}

class EmbeddedCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;

  constructor(
    private readonly store: EmbeddedStore,
    readonly name: string,
  ) {
    this.table = store.ensureTable(name);
  }

  async insertOne(doc: T & NewDocument): Promise<T & StoredDocument> {
    return this.insertRow(doc);
  }

  async insertMany(docs: Array<T & NewDocument>): Promise<Array<T & StoredDocument>> {
    return this.store.transaction(() => docs.map((doc) => this.insertRow(doc)));
  }

  async findOne(filter?: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<(T & StoredDocument) | null> {
    return this.select(filter, { ...options, limit: 1 })[0] ?? null;
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<Array<T & StoredDocument>> {
    return this.select(filter, options);
  }

  async count(filter?: Filter): Promise<number> {
    const where = filterToSql(filter);
    const row = this.store.prepare(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${where.sql}`).get(...where.params) as { n: number };
    return row.n;
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkUpdate(update);
    return this.store.transaction(() => {
      const row = this.rows(filter, { limit: 1 })[0];
      if (!row) return this.upsertIfAsked(filter, update, options.upsert);
      const changed = this.writeUpdate(row, update);
      return { matchedCount: 1, modifiedCount: changed ? 1 : 0 };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    checkUpdate(update);
    return this.store.transaction(() => {
      const rows = this.rows(filter, {});
      let modified = 0;
      for (const row of rows) if (this.writeUpdate(row, update)) modified++;
      return { matchedCount: rows.length, modifiedCount: modified };
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<(T & StoredDocument) | null> {
    checkUpdate(update);
    return this.store.transaction(() => {
      const row = this.rows(filter, { sort: options.sort, limit: 1 })[0];
      if (!row) {
        if (!options.upsert) return null;
        const inserted = this.insertRow(applyUpdate(seedFromFilter(filter), update, true) as T & NewDocument);
        return options.returnDocument === 'before' ? null : project(inserted, options.projection);
      }
      const before = decodeDocument<T & StoredDocument>(row.doc);
      const after = applyUpdate(before, update, false) as T & StoredDocument;
      this.writeRow(row._id, after);
      return project(options.returnDocument === 'before' ? before : after, options.projection);
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    const where = filterToSql(filter);
    const result = this.store.prepare(`DELETE FROM ${this.table} WHERE rowid IN (SELECT rowid FROM ${this.table} WHERE ${where.sql} LIMIT 1)`).run(...where.params);
    return result.changes;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = filterToSql(filter);
    return this.store.prepare(`DELETE FROM ${this.table} WHERE ${where.sql}`).run(...where.params).changes;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const fields = Object.entries(spec.fields ?? {});
    if (fields.length === 0) throw new UnsupportedQueryError('An index needs at least one field');
    const name = spec.name ?? fields.map(([f, d]) => `${f.replace(/\./g, '_')}_${d}`).join('_');
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new UnsupportedQueryError(`Invalid index name '${name}'`);
    const columns = fields.map(([path, dir]) => `${fieldExpr(path)} ${dir === -1 ? 'DESC' : 'ASC'}`).join(', ');
    const where = spec.sparse ? ` WHERE ${fieldExpr(fields[0]![0])} IS NOT NULL` : '';
    const sql = `CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "c_${this.name}__${name}" ON ${this.table} (${columns})${where}`;
    try {
      this.store.exec(sql);
    } catch (error) {
      mapError(this.name, error);
    }
  }

  // ---------------------------------------------------------------------------

  private rows(filter: Filter | undefined, options: FindOptions): Row[] {
    const where = filterToSql(filter);
    const limit = checkCount('limit', options.limit);
    const skip = checkCount('skip', options.skip);
    let sql = `SELECT _id, doc FROM ${this.table} WHERE ${where.sql}${orderBy(options.sort)}`;
    const params = [...where.params];
    if (limit !== undefined && limit > 0) {
      sql += ' LIMIT ?';
      params.push(limit);
    } else if (skip) sql += ' LIMIT -1';
    if (skip) {
      sql += ' OFFSET ?';
      params.push(skip);
    }
    return this.store.prepare(sql).all(...params) as Row[];
  }

  private select(filter: Filter | undefined, options: FindOptions): Array<T & StoredDocument> {
    return this.rows(filter, options).map((row) => project(decodeDocument<T & StoredDocument>(row.doc), options.projection));
  }

  private insertRow(doc: T & NewDocument): T & StoredDocument {
    const id = doc._id ?? newId();
    if (typeof id !== 'string' || id.length === 0) throw new UnsupportedQueryError('_id must be a non-empty string');
    const stored = { ...doc, _id: id } as T & StoredDocument;
    try {
      this.store.prepare(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`).run(id, encodeDocument(stored));
    } catch (error) {
      mapError(this.name, error);
    }
    return structuredClone(stored);
  }

  private writeRow(id: string, doc: Doc): void {
    try {
      this.store.prepare(`UPDATE ${this.table} SET doc = ? WHERE _id = ?`).run(encodeDocument(doc), id);
    } catch (error) {
      mapError(this.name, error);
    }
  }

  private writeUpdate(row: Row, update: Update): boolean {
    const before = decodeDocument<Doc>(row.doc);
    const after = applyUpdate(before, update, false);
    const text = encodeDocument(after);
    if (text === row.doc) return false;
    this.writeRow(row._id, after);
    return true;
  }

  private upsertIfAsked(filter: Filter, update: Update, upsert: boolean | undefined): UpdateResult {
    if (!upsert) return { matchedCount: 0, modifiedCount: 0 };
    const inserted = this.insertRow(applyUpdate(seedFromFilter(filter), update, true) as T & NewDocument);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: inserted._id };
  }
}

export function openEmbeddedStore(options: EmbeddedStoreOptions): EmbeddedStore {
  return new EmbeddedStore(options);
}
