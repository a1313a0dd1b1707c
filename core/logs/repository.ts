import type { Collection, DocumentStore, Filter, IndexSpec } from '../store/port.js';
import { LOGS, type LogRecord, type NewLogRecord } from './model.js';

/**
 * Indexes for a newest-first page under each filter GET /logs offers. Every one ends in
 * `created_at, id` descending, the page order, so a filtered newest page is read straight
 * off an index (no sort) even with millions of entries. `agent_id + level` has its own
 * index because the admin client adds agent_id to every request. `search` has none: it
 * scans newest-first until the page is full (and the total scans every candidate).
 *
 * The order is deliberate, least selective first. SQLite without statistics rates two
 * single-equality indexes alike and takes the one created last, so `job_id` (a handful
 * of entries) must win over `agent_id` (a quarter of them): measured at 1M entries, an
 * agent + job query took 380 ms on the agent index and 1 ms on the job index. MongoDB
 * picks by trial and does not care.
 */
export const LOG_INDEXES: readonly IndexSpec[] = [
  { fields: { id: 1 }, unique: true },
  { fields: { created_at: -1, id: -1 } },
  { fields: { agent_id: 1, created_at: -1, id: -1 } },
  { fields: { level: 1, created_at: -1, id: -1 } },
  { fields: { agent_id: 1, level: 1, created_at: -1, id: -1 } },
  { fields: { 'context.pipeline_id': 1, created_at: -1, id: -1 } },
  { fields: { 'context.flow_id': 1, created_at: -1, id: -1 } },
  { fields: { 'context.job_id': 1, created_at: -1, id: -1 } },
];

/** The page order: newest first, the later-written entry first within one instant. */
export const NEWEST_FIRST = { created_at: -1, id: -1 } as const;

/** How many log ids the embedded store reserves at a time. */
const LOG_ID_BLOCK = 1000;

/** Storage of log entries on the DocumentStore port. */
export class LogsRepository {
  readonly entries: Collection<NewLogRecord>;

  constructor(private readonly store: DocumentStore) {
    this.entries = store.collection<NewLogRecord>(LOGS);
  }

  async ensureIndexes(): Promise<void> {
    // One at a time, in order: the order is the planner's tie-break (see LOG_INDEXES).
    for (const spec of LOG_INDEXES) await this.entries.createIndex(spec);
  }

  /** Ids reserved and not used yet (embedded store only, see nextId). */
  private block = { next: 0, end: 0 };

  /**
   * The first of `count` consecutive new entry ids. On the embedded store one process
   * holds the file, so ids are reserved a thousand at a time and most batches of entries
   * need no write for theirs (a restart leaves a gap, never a repeat). On MongoDB hosts
   * share the sequence, and each batch reserves its own so ids keep the order of writing.
   */
  async nextId(count = 1): Promise<number> {
    if (this.store.kind !== 'embedded') return this.store.nextId(LOGS, count);
    if (this.block.end - this.block.next < count) {
      const size = Math.max(count, LOG_ID_BLOCK);
      const first = await this.store.nextId(LOGS, size);
      this.block = { next: first, end: first + size };
    }
    const first = this.block.next;
    this.block.next += count;
    return first;
  }

  insert(record: NewLogRecord): Promise<LogRecord> {
    return this.entries.insertOne(record);
  }

  insertMany(records: NewLogRecord[]): Promise<LogRecord[]> {
    return this.entries.insertMany(records);
  }

  page(filter: Filter, skip: number, limit: number): Promise<LogRecord[]> {
    return this.entries.find(filter, { sort: NEWEST_FIRST, skip, limit });
  }

  count(filter: Filter): Promise<number> {
    return this.entries.count(filter);
  }

  /** The time of the first entry in `created_at` order (1 oldest, -1 newest), or null. */
  async edge(filter: Filter, direction: 1 | -1): Promise<Date | null> {
    const first = await this.entries.findOne(filter, { sort: { created_at: direction, id: direction }, projection: { created_at: 1 } });
    return first ? first.created_at : null;
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.entries.deleteMany(filter);
  }
}
