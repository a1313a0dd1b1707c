import type { Agenda } from 'agenda';

/**
 * The scheduled jobs running in this process (a plugin's job, a delayed run), from Agenda's
 * own start/complete events: a graceful stop waits for them as it waits for the engine's
 * runs. Agenda's stop() hands back what it locked but did not start, and leaves running
 * jobs locked (they end, or their lock lapses).
 */
export interface RunningJobs {
  count(): number;
  /** Resolves when none is running. */
  idle(): Promise<void>;
}

export function trackRunningJobs(agenda: Agenda): RunningJobs {
  let running = 0;
  let waiters: Array<() => void> = [];
  agenda.on('start', () => void running++);
  agenda.on('complete', () => {
    running = Math.max(0, running - 1);
    if (running > 0) return;
    const done = waiters;
    waiters = [];
    for (const wake of done) wake();
  });
  return {
    count: () => running,
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
