// Builds Flowhost's Agenda on whichever store the host opened. The backend's indexes are
// created before Agenda exists because Agenda's constructor starts connect() without
// handling a rejection: an unusable store would otherwise leave `agenda.ready` pending
// forever. Here it rejects createScheduler instead.
import { Agenda } from 'agenda';
import type { DocumentStore } from '../../core/store/port.js';
import { PortBackend } from './port-backend.js';
import { settleDebugColors } from './debug-colors.js';

export interface SchedulerOptions {
  store: DocumentStore;
  /** This host's name; Agenda records it as `lastModifiedBy` on jobs it saves or locks. */
  name: string;
  /** How often to look for due jobs: milliseconds or a human interval ('5 seconds'). Agenda's default is 5 s. */
  processEvery?: string | number;
  /** How long a lock holds before another host may take the job over, in ms. Agenda's default is 10 min. */
  lockLifetime?: number;
  /** How many jobs of one name run at once in this process. Agenda's default is 5. */
  defaultConcurrency?: number;
  /** How many jobs of all names run at once in this process (default MAX_CONCURRENCY). */
  maxConcurrency?: number;
}

/**
 * Agenda's default of 20 for all names together is below flow.run's own concurrency
 * (agenda-runtime.ts) plus the plugins' jobs; this leaves room for both.
 */
export const MAX_CONCURRENCY = 100;

export async function createScheduler(options: SchedulerOptions): Promise<Agenda> {
  settleDebugColors();
  const backend = new PortBackend(options.store);
  await backend.connect();
  const agenda = new Agenda({
    backend,
    name: options.name,
    maxConcurrency: options.maxConcurrency ?? MAX_CONCURRENCY,
    ...(options.processEvery !== undefined ? { processEvery: options.processEvery } : {}),
    ...(options.lockLifetime !== undefined ? { defaultLockLifetime: options.lockLifetime } : {}),
    ...(options.defaultConcurrency !== undefined ? { defaultConcurrency: options.defaultConcurrency } : {}),
  });
  await agenda.ready;
  return agenda;
}
