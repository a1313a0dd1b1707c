/**
 * The log's event (issue 54): the logs domain owns the `logged` hook and alone fires it,
 * for each entry the searchable log keeps; a plugin listens through
 * `deps: { logEvents: services.logEvents }`.
 */
import type { AsyncSeriesHook } from 'tapable';
import type { ListenOnly } from '../kernel/domain-hooks.js';
import { createServiceRef } from '../kernel/service-ref.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warning' | 'error' | 'critical';
  message: string;
  context: Record<string, unknown>;
  createdAt: Date;
}

/** The logs domain's hooks as it holds them (core/logs/log-hooks.ts). */
export interface LogHookSet {
  /** An entry was recorded (at a level the log keeps). */
  readonly logged: AsyncSeriesHook<[LogEntry]>;
}

/** What a plugin sees of the log's hooks. */
export type LogEvents = ListenOnly<LogHookSet>;

/** `deps: { logEvents: services.logEvents }`: provided by the core logs plugin. */
export const logEventsService = createServiceRef<LogEvents, 'root'>({ id: 'logEvents', scope: 'root' });
