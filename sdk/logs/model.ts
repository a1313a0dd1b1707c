/** Log entries: what is stored, what the API shows, and the filters GET /logs takes. */

export const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Collection and id sequence of log entries. */
export const LOGS = 'logs';

/** Context keys that are ids: filterable and indexed, so always stored as integers when they are. */
export const CONTEXT_ID_KEYS = ['job_id', 'flow_id', 'pipeline_id'] as const;
export type ContextIdKey = (typeof CONTEXT_ID_KEYS)[number];

/** A log entry's stored fields, before the store gives it an `_id` (a type literal, so it is a Record). */
export type NewLogRecord = {
  id: number;
  level: LogLevel;
  message: string;
  context: Record<string, unknown>;
  agent_id: number | null;
  user_id: number | null;
  created_at: Date;
};

export type LogRecord = NewLogRecord & { _id: string };

/** What a caller writes; everything but the message has a default. */
export interface LogEntryInput {
  /** Default 'info', as the spec says. */
  level?: LogLevel;
  message: string;
  context?: Record<string, unknown>;
  agent_id?: number | null;
  user_id?: number | null;
}

/** A log entry as the API shows it. */
export interface LogRecordView {
  id: number;
  agent_id: number | null;
  user_id: number | null;
  level: LogLevel;
  message: string;
  context: Record<string, unknown>;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
}

/** Filters of GET /logs (and of metadata / delete, which use the agent only). */
export interface LogFilters {
  agent_id?: number;
  user_id?: number;
  level?: LogLevel;
  /** Entries at or after this instant. */
  since?: Date;
  /** Entries strictly before this instant. */
  before?: Date;
  job_id?: number;
  flow_id?: number;
  pipeline_id?: number;
  /** Case-insensitive substring of the message; every character is literal. */
  search?: string;
}

export interface LogPageRequest {
  /** 1-based; default 1. */
  page?: number;
  /** Default 50, at most 500. */
  per_page?: number;
}

export interface LogPage {
  items: LogRecordView[];
  total: number;
  page: number;
  pages: number;
  per_page: number;
}

export interface LogMetadata {
  total_entries: number;
  oldest: string | null;
  newest: string | null;
}

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 500;

/** The spec's timestamp form: UTC `YYYY-MM-DD HH:MM:SS` (milliseconds dropped). */
export function formatLogTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}
