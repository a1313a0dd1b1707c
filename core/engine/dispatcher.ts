import type { DocumentStore } from '../store/port.js';
import type { Logger } from '../kernel/logger.js';

/** Hands jobs to whatever runs them in the background (Agenda in a full host). */
export interface JobDispatcher {
  /** Runs the job soon, after the current request; returns the background action id. */
  runNow(jobId: number): Promise<number>;
  /** Runs the job once at `at`; returns the background action id. */
  runAt(jobId: number, at: Date): Promise<number>;
  /** Resolves when every job this process started has ended (graceful stop). */
  drain(): Promise<void>;
}

/**
 * In-process dispatch: immediate runs on the next tick, delayed runs on a timer. Not
 * persistent (a delayed run is lost with the process) — the Agenda dispatcher is; this
 * one serves builds without a scheduler and tests.
 */
export class InProcessDispatcher implements JobDispatcher {
  private readonly running = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: DocumentStore,
    private readonly run: (jobId: number) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  async runNow(jobId: number): Promise<number> {
    const actionId = await this.store.nextId('actions');
    setImmediate(() => this.track(jobId));
    return actionId;
  }

  async runAt(jobId: number, at: Date): Promise<number> {
    const actionId = await this.store.nextId('actions');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(jobId);
    }, Math.max(0, at.getTime() - Date.now()));
    timer.unref();
    this.timers.add(timer);
    return actionId;
  }

  async drain(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private track(jobId: number): void {
    const promise = this.run(jobId)
      .catch((error: unknown) => this.log.error({ err: error, job_id: jobId }, 'Job run failed outside the engine'))
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }
}
