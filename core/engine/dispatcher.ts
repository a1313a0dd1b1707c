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
 * How runs reach the background (Agenda in a full host). Flows' schedules are a service of
 * their own (`flowSchedule`): flows need them, and the run scheduler needs flows.
 */
export interface RunScheduler {
  readonly dispatcher: JobDispatcher;
}
