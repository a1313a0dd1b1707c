/** What a plugin may do with the searchable log (GET /logs): add an entry. */
import { createServiceRef } from '../kernel/service-ref.js';
import type { LogEntryInput, LogRecordView } from '../logs/model.js';

export type { LogEntryInput, LogRecordView } from '../logs/model.js';

export interface LogsApi {
  /** Stores the entry when its level is kept; null when it is not. */
  record(entry: LogEntryInput): Promise<LogRecordView | null>;
}

/** `deps: { logs: services.logs }`: provided by the core domain plugin. */
export const logsService = createServiceRef<LogsApi, 'root'>({ id: 'logs', scope: 'root' });
