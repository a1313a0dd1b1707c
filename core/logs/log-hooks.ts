import { AsyncSeriesHook } from 'tapable';
import type { LogEntry, LogHookSet } from '../../sdk/contract/log-events.js';

/** The log's own hook: the logs domain alone fires it; plugins listen through `services.logEvents`. */
export class LogHooks implements LogHookSet {
  readonly logged = new AsyncSeriesHook<[LogEntry]>(['entry']);
}
