import { escapeRegExp as escapeRegex } from '../store/document-shape.js';
import type { Clock } from '../kernel/clock.js';
import { maskDeep } from '../security/mask.js';
import type { Filter } from '../store/port.js';
import {
  CONTEXT_ID_KEYS,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  formatLogTime,
  isLogLevel,
  type LogEntryInput,
  type LogFilters,
  type LogLevel,
  type LogMetadata,
  type LogPage,
  type LogPageRequest,
  type LogRecord,
  type NewLogRecord,
  type LogRecordView,
} from './model.js';
import type { LogsRepository } from './repository.js';
import { idBlocks, insertBatcher, type Batcher } from '../store/batcher.js';
import type { LogsApi } from '../../sdk/contract/logs.js';
import { apiError } from '../errors/catalogue.js';

const DAY_MS = 86_400_000;
/** At most this many entries per batch write (one id block, one insertMany). */
const MAX_LOG_BATCH = 500;
/** Entry ids reserved per write on a store this process alone writes (see idBlocks). */
const ID_BLOCK = 500;

export interface LogsServiceOptions {
  /** Called after each stored entry (the host hands it to the `logged` hook's sinks). */
  onWritten?: (entry: LogRecordView, createdAt: Date) => void | Promise<void>;
  /**
   * Whether `record` keeps `debug` entries (item-level run detail); default true. The
   * host turns it on with FLOWHOST_LOG_DEBUG (or FLOWHOST_LOG_LEVEL debug/trace).
   */
  storeDebug?: boolean;
}

const invalid = (message: string, params: Record<string, string> = {}) => apiError('rest_invalid_param', { message, data: { params } });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The id keys of a context (job_id, flow_id, pipeline_id) are stored as integers
 * whenever they are one (`"12"` becomes 12), so the integer filter finds them and job 12
 * never matches 123. Any other value is kept as text: an array there would make the
 * embedded store add element matching to that path and lose its index for good.
 */
function normalizeContext(context: Record<string, unknown>): Record<string, unknown> {
  const out = maskDeep(context);
  for (const key of CONTEXT_ID_KEYS) {
    if (!(key in out) || out[key] === null || out[key] === undefined) continue;
    const value = out[key];
    if (typeof value === 'number' && Number.isSafeInteger(value)) continue;
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) out[key] = Number(value.trim());
    else out[key] = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  }
  return out;
}

function optionalId(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalid(`${field} must be a non-negative integer or null`, { [field]: 'must be a non-negative integer' });
  return value;
}

/** Structured operational logs: written by the engine and plugins, read over GET /logs. */
export class LogsService implements LogsApi {
  /**
   * Entries are written in batches: everything logged in one turn of the event loop gets
   * one block of ids and one insertMany (one transaction on SQLite); an entry the store
   * refuses fails alone.
   */
  private readonly batch: Batcher<Omit<NewLogRecord, 'id'>, LogRecord>;
  private readonly ids: (count: number) => Promise<number>;

  constructor(
    private readonly repo: LogsRepository,
    private readonly clock: Clock,
    private readonly options: LogsServiceOptions = {},
  ) {
    this.ids = idBlocks(
      (count) => this.repo.nextId(count),
      () => (this.repo.singleWriter ? ID_BLOCK : 0),
    );
    this.batch = insertBatcher<NewLogRecord, LogRecord, Omit<NewLogRecord, 'id'>>(
      (records) => this.repo.insertMany(records),
      (record) => this.repo.insert(record),
      {
        // Ids are taken inside the flush, one block per batch, so they follow write order.
        prepare: async (entries) => {
          const first = await this.ids(entries.length);
          return entries.map((entry, i) => ({ ...entry, id: first + i }) as NewLogRecord);
        },
        maxBatch: MAX_LOG_BATCH,
      },
    );
  }

  init(): Promise<void> {
    return this.repo.ensureIndexes();
  }

  /**
   * Stores one entry. Secret-named context fields are masked before they are stored,
   * so no log line (or GET /logs answer) ever carries them.
   */
  async write(entry: LogEntryInput, soon = false): Promise<LogRecordView> {
    const level = entry.level ?? 'info';
    if (!isLogLevel(level))
      throw invalid(`Unknown log level '${String(level)}'`, { level: 'must be one of debug, info, warning, error, critical' });
    if (typeof entry.message !== 'string') throw invalid('A log message must be a string', { message: 'must be a string' });
    if (entry.context !== undefined && !isPlainObject(entry.context))
      throw invalid('A log context must be an object', { context: 'must be an object' });
    const record: Omit<NewLogRecord, 'id'> = {
      level,
      message: entry.message,
      context: normalizeContext(entry.context ?? {}),
      agent_id: optionalId(entry.agent_id, 'agent_id'),
      user_id: optionalId(entry.user_id, 'user_id'),
      created_at: this.clock.now(),
    };
    const stored = toView(await this.batch.add(record, soon));
    if (this.options.onWritten) await this.options.onWritten(stored, record.created_at);
    return stored;
  }

  /**
   * Resolves when every entry written so far is stored. The engine calls it before it
   * writes a job's final state, so a finished job's step lines are always there; reads
   * call it first, so a page always shows what this host has written.
   */
  flush(): Promise<void> {
    return this.batch.drain();
  }

  /** Whether `record` stores entries of this level on this host (debug only when switched on). */
  stores(level: LogLevel): boolean {
    return level !== 'debug' || this.options.storeDebug !== false;
  }

  /**
   * Stores the entry when its level is enabled on this host (`stores`), else drops it and
   * answers null. What the engine, triggers and configuration changes write goes here;
   * `write` stores whatever it is given. `soon`: written with the entries added in the same
   * run of microtasks, not at the next turn (see Batcher.add).
   */
  async record(entry: LogEntryInput, options: { soon?: boolean } = {}): Promise<LogRecordView | null> {
    if (!this.stores(entry.level ?? 'info')) return null;
    return this.write(entry, options.soon === true);
  }

  /** One newest-first page of the entries that pass every filter. */
  async query(filters: LogFilters = {}, paging: LogPageRequest = {}): Promise<LogPage> {
    const perPage = paging.per_page ?? DEFAULT_PER_PAGE;
    const page = paging.page ?? 1;
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE)
      throw invalid(`per_page must be an integer from 1 to ${MAX_PER_PAGE}`, { per_page: 'out of range' });
    if (!Number.isInteger(page) || page < 1) throw invalid('page must be an integer of 1 or more', { page: 'out of range' });
    const filter = toFilter(filters);
    await this.flush();
    const [records, total] = await Promise.all([this.repo.page(filter, (page - 1) * perPage, perPage), this.repo.count(filter)]);
    return { items: records.map(toView), total, page, pages: Math.ceil(total / perPage), per_page: perPage };
  }

  async metadata(filters: LogFilters = {}): Promise<LogMetadata> {
    const filter = toFilter(filters);
    await this.flush();
    const [total, oldest, newest] = await Promise.all([this.repo.count(filter), this.repo.edge(filter, 1), this.repo.edge(filter, -1)]);
    return { total_entries: total, oldest: oldest ? formatLogTime(oldest) : null, newest: newest ? formatLogTime(newest) : null };
  }

  /** Deletes the entries that pass the filters (all of them with none); answers how many. */
  async delete(filters: LogFilters = {}): Promise<number> {
    const filter = toFilter(filters);
    await this.flush();
    return this.repo.deleteMany(filter);
  }

  /** Job retention: the entries written about these jobs (their runs' lines) go with them. */
  async deleteOfJobs(jobIds: readonly number[]): Promise<number> {
    if (jobIds.length === 0) return 0;
    await this.flush();
    return this.repo.deleteMany({ 'context.job_id': { $in: [...jobIds] } });
  }

  /** How many entries were written about these jobs (a dry-run prune). */
  async countOfJobs(jobIds: readonly number[]): Promise<number> {
    if (jobIds.length === 0) return 0;
    await this.flush();
    return this.repo.count({ 'context.job_id': { $in: [...jobIds] } });
  }

  /** Retention: deletes entries older than `days` days by the clock; 0 keeps everything. */
  async purgeOlderThan(days: number): Promise<number> {
    if (typeof days !== 'number' || !Number.isFinite(days) || days < 0)
      throw invalid('days must be a non-negative number', { days: 'must be 0 or more' });
    if (days === 0) return 0;
    await this.flush();
    return this.repo.deleteMany({ created_at: { $lt: new Date(this.clock.now().getTime() - days * DAY_MS) } });
  }
}

function requireInteger(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) throw invalid(`${field} must be an integer`, { [field]: 'must be an integer' });
  return value;
}

/** The store filter for a set of log filters; each is ANDed with the others. */
export function toFilter(filters: LogFilters): Filter {
  const filter: Filter = {};
  if (filters.agent_id !== undefined) filter.agent_id = requireInteger(filters.agent_id, 'agent_id');
  if (filters.user_id !== undefined) filter.user_id = requireInteger(filters.user_id, 'user_id');
  if (filters.level !== undefined) {
    if (!isLogLevel(filters.level)) throw invalid(`Unknown log level '${String(filters.level)}'`, { level: 'unknown level' });
    filter.level = filters.level;
  }
  for (const key of CONTEXT_ID_KEYS) {
    const value = filters[key];
    if (value !== undefined) filter[`context.${key}`] = requireInteger(value, key);
  }
  const range: Record<string, Date> = {};
  // The spec: entries after `since`, before `before`; both bounds exclusive.
  if (filters.since) range.$gt = checkDate(filters.since, 'since');
  if (filters.before) range.$lt = checkDate(filters.before, 'before');
  if (Object.keys(range).length) filter.created_at = range;
  if (filters.search) filter.message = { $regex: escapeRegex(filters.search), $options: 'i' };
  return filter;
}

function checkDate(value: Date, field: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime()))
    throw invalid(`${field} must be a valid date`, { [field]: 'invalid date' });
  return value;
}

function toView(record: LogRecord): LogRecordView {
  return {
    id: record.id,
    agent_id: record.agent_id ?? null,
    user_id: record.user_id ?? null,
    level: record.level,
    message: record.message,
    context: record.context ?? {},
    created_at: formatLogTime(record.created_at),
  };
}

export { escapeRegex };
