import { isPlainObject, newDocumentId as newId } from '../../../core/store/document-shape.js';
import {
  type BulkOp,
  type BulkResult,
  UnsupportedDocumentError,
  UnsupportedQueryError,
  type Collection,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type NewDocument,
  type StoredDocument,
  type TotalsGroup,
  type TotalsSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '../../../core/store/port.js';
import { applyUpdate, checkUpdate } from './apply-update.js';
import { decodeDocument, encodeStorable } from './document-codec.js';
import { filterToSql } from './filter-to-sql.js';
import { indexStatements } from './index-sql.js';
import { checkProjection, project } from './projection.js';
import { selectSql, type SelectOptions } from './select-sql.js';
import type { SqliteSession } from './sqlite-session.js';
import { rethrowAsPortError } from './sqlite-errors.js';
import { seedFromFilter } from './upsert-seed.js';
import { checkTotalsSpec, completeTotals } from '../../../core/store/totals-spec.js';
import { checkPath } from './json-path.js';
import { totalsFromRows, totalsSql, type TotalsRow } from './totals-sql.js';

type Doc = Record<string, unknown>;
type Row = { _id: string; doc: string };

/** 24 lowercase hex characters, like an ObjectId's string form. */

/** One collection: a table `c_<name>` of `(_id TEXT PRIMARY KEY, doc TEXT)` JSON documents. */
export class EmbeddedCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly session: SqliteSession,
    readonly name: string,
  ) {}

  async insertOne(doc: T & NewDocument): Promise<T & StoredDocument> {
    return this.write((table) => this.insertRow(table, doc));
  }

  /** All or nothing: one transaction, so a duplicate anywhere stores none of the batch. */
  async insertMany(docs: Array<T & NewDocument>): Promise<Array<T & StoredDocument>> {
    if (!Array.isArray(docs)) throw new UnsupportedQueryError('insertMany needs an array of documents');
    return this.write((table) => docs.map((doc) => this.insertRow(table, doc)));
  }

  async findOne(filter?: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<(T & StoredDocument) | null> {
    return (await this.find(filter, { ...options, limit: 1 }))[0] ?? null;
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<Array<T & StoredDocument>> {
    checkProjection(options.projection);
    return this.read((table) =>
      this.rows(table, filter, options).map((row) => project(decodeDocument<T & StoredDocument>(row.doc), options.projection)),
    );
  }

  async count(filter?: Filter): Promise<number> {
    return this.read((table) => {
      const where = filterToSql(filter, this.session.arrayPaths(this.name));
      return (this.session.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    });
  }

  async totals(filter: Filter | undefined, spec: TotalsSpec): Promise<TotalsGroup[]> {
    const checked = checkTotalsSpec(spec, checkPath);
    return this.read((table) => {
      const select = totalsSql(table, filter, checked, this.session.arrayPaths(this.name));
      return completeTotals(totalsFromRows(this.session.prepare(select.sql).all(...select.params) as TotalsRow[], checked), checked);
    });
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkUpdate(update);
    return this.write((table) => this.updateOneIn(table, filter, update, options));
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    checkUpdate(update);
    return this.write((table) => {
      const rows = this.rows(table, filter, {});
      let modified = 0;
      for (const row of rows) if (this.updateRow(table, row, update)) modified++;
      return { matchedCount: rows.length, modifiedCount: modified };
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<(T & StoredDocument) | null> {
    checkUpdate(update);
    checkProjection(options.projection);
    return this.write((table) => this.findOneAndUpdateIn(table, filter, update, options));
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.write((table) => {
      const where = filterToSql(filter, this.session.arrayPaths(this.name));
      return this.session
        .prepare(`DELETE FROM ${table} WHERE rowid = (SELECT rowid FROM ${table} WHERE ${where.sql} LIMIT 1)`)
        .run(...where.params).changes;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.write((table) => this.deleteManyIn(table, filter));
  }

  /**
   * One write of the store's `bulkWrite`, inside the transaction it opened (`table` was
   * created before it, as `session.table` must run outside a transaction).
   */
  bulkStep(table: string, op: BulkOp): BulkResult {
    try {
      if ('insertOne' in op) return this.insertRow(table, op.insertOne.document as T & NewDocument);
      if ('updateOne' in op) {
        checkUpdate(op.updateOne.update);
        return this.updateOneIn(table, op.updateOne.filter, op.updateOne.update, { upsert: op.updateOne.upsert });
      }
      if ('findOneAndUpdate' in op) {
        const options = op.findOneAndUpdate.options ?? {};
        checkUpdate(op.findOneAndUpdate.update);
        checkProjection(options.projection);
        return this.findOneAndUpdateIn(table, op.findOneAndUpdate.filter, op.findOneAndUpdate.update, options);
      }
      if ('deleteMany' in op) return this.deleteManyIn(table, op.deleteMany.filter);
    } catch (error) {
      rethrowAsPortError(this.name, error);
    }
    throw new UnsupportedQueryError('A bulkWrite op needs one of insertOne, updateOne, findOneAndUpdate, deleteMany');
  }

  /** Idempotent; creating a unique index over existing duplicates is a DuplicateKeyError. */
  async createIndex(spec: IndexSpec): Promise<void> {
    const table = this.session.table(this.name);
    const { statements } = indexStatements(this.name, table, spec);
    try {
      this.session.ddl(statements);
    } catch (error) {
      rethrowAsPortError(this.name, error);
    }
  }

  /** EXPLAIN QUERY PLAN of the SELECT that `find` runs (diagnostics, tests and the benchmark). */
  explainFind(filter?: Filter, options: SelectOptions = {}): string[] {
    return this.read((table) => {
      const select = selectSql(table, filter, options, this.session.arrayPaths(this.name));
      return (this.session.prepare(`EXPLAIN QUERY PLAN ${select.sql}`).all(...select.params) as Array<{ detail: string }>).map(
        (r) => r.detail,
      );
    });
  }

  // ---------------------------------------------------------------------------

  private read<R>(fn: (table: string) => R): R {
    const table = this.session.table(this.name);
    return this.session.read(() => fn(table));
  }

  private write<R>(fn: (table: string) => R): R {
    const table = this.session.table(this.name);
    try {
      return this.session.write(() => fn(table));
    } catch (error) {
      rethrowAsPortError(this.name, error);
    }
  }

  private rows(table: string, filter: Filter | undefined, options: SelectOptions): Row[] {
    const select = selectSql(table, filter, options, this.session.arrayPaths(this.name));
    return this.session.prepare(select.sql).all(...select.params) as Row[];
  }

  /** Encodes a document about to be written and records its array paths (inside the write transaction). */
  private prepareWrite(id: string, doc: Doc): { text: string; stored: T & StoredDocument } {
    if (doc._id !== id) throw new UnsupportedQueryError("'_id' cannot be changed");
    const encoded = encodeStorable<T & StoredDocument>(doc);
    if ('problem' in encoded) throw new UnsupportedDocumentError(this.name, encoded.problem);
    this.session.recordArrays(this.name, doc);
    return encoded;
  }

  private insertRow(table: string, doc: T & NewDocument): T & StoredDocument {
    if (!isPlainObject(doc)) throw new UnsupportedQueryError('A document must be a plain object');
    const { _id, ...fields } = doc;
    const id = _id === undefined ? newId() : _id;
    if (typeof id !== 'string' || id.length === 0) throw new UnsupportedQueryError('_id must be a non-empty string');
    const { text, stored } = this.prepareWrite(id, { _id: id, ...fields });
    this.session.prepare(`INSERT INTO ${table} (_id, doc) VALUES (?, ?)`).run(id, text);
    return stored;
  }

  /** Writes the updated document when it changed; says whether it did (MongoDB's modifiedCount). */
  private updateRow(table: string, row: Row, update: Update): boolean {
    const { text } = this.prepareWrite(row._id, applyUpdate(decodeDocument<Doc>(row.doc), update, false));
    if (text === row.doc) return false;
    this.session.prepare(`UPDATE ${table} SET doc = ? WHERE _id = ?`).run(text, row._id);
    return true;
  }

  private updateOneIn(table: string, filter: Filter, update: Update, options: UpdateOptions): UpdateResult {
    const row = this.rows(table, filter, { limit: 1 })[0];
    if (!row) return this.upsert(table, filter, update, options.upsert);
    return { matchedCount: 1, modifiedCount: this.updateRow(table, row, update) ? 1 : 0 };
  }

  private findOneAndUpdateIn(table: string, filter: Filter, update: Update, options: FindOneAndUpdateOptions): (T & StoredDocument) | null {
    const row = this.rows(table, filter, { sort: options.sort, limit: 1 })[0];
    if (!row) {
      if (!options.upsert) return null;
      const inserted = this.insertRow(table, applyUpdate(seedFromFilter(filter), update, true) as T & NewDocument);
      return options.returnDocument === 'before' ? null : project(inserted, options.projection);
    }
    const before = decodeDocument<T & StoredDocument>(row.doc);
    // applyUpdate changes what it is given: a second decode when the caller wants the original.
    const after = applyUpdate(options.returnDocument === 'before' ? decodeDocument<Doc>(row.doc) : before, update, false) as T &
      StoredDocument;
    const { text, stored } = this.prepareWrite(row._id, after);
    if (text !== row.doc) this.session.prepare(`UPDATE ${table} SET doc = ? WHERE _id = ?`).run(text, row._id);
    const returned = options.returnDocument === 'before' ? before : stored;
    return project(returned, options.projection);
  }

  private deleteManyIn(table: string, filter: Filter): number {
    const where = filterToSql(filter, this.session.arrayPaths(this.name));
    return this.session.prepare(`DELETE FROM ${table} WHERE ${where.sql}`).run(...where.params).changes;
  }

  private upsert(table: string, filter: Filter, update: Update, upsert: boolean | undefined): UpdateResult {
    if (!upsert) return { matchedCount: 0, modifiedCount: 0 };
    const inserted = this.insertRow(table, applyUpdate(seedFromFilter(filter), update, true) as T & NewDocument);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: inserted._id };
  }
}
