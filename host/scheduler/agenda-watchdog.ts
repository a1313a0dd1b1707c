// The one place Flowhost reaches past Agenda's public API: two timers Agenda 6.2's
// JobProcessor sets and never clears, so that after `agenda.stop()` they still hold the
// process (a test suite, a short-lived CLI command) for as long as they run:
//
// - the job watchdog (`checkIfJobIsStillAlive`): each run races a loop sleeping
//   lockLifetime / 2 on a setTimeout; after the run ends it sleeps on, up to 5 minutes
//   with the default 10-minute lock. It is created synchronously inside `runOrRetry`
//   (before its first await), so the timers that call creates are the ones unref'd;
// - the near-future timer: a job due within `processEvery` gets a setTimeout that calls
//   `jobProcessing()` at its time, armed right after `jobQueue.insert(job)` for a job not
//   yet `gotTimerToExecute` (upstream agenda#1786, fixed by agenda#1791 in a later release).
//
// Both are unref'd, never cleared: they still fire while anything else keeps the process
// alive (a running host always does: Agenda's own process interval is ref'd). They are
// found with an async hook enabled for one synchronous span only; no global is patched.
//
// test/host/scheduler/agenda-watchdog.test.ts fails when an Agenda upgrade renames what is
// wrapped here or stops leaving the watchdog timer (then this file can go); test/run.mjs
// fails any suite whose process outlives its last test by 2 s, which catches the rest.
import { type AsyncHook, createHook } from 'node:async_hooks';
import type { Agenda } from 'agenda';

interface ProcessorInternals {
  runOrRetry(job: unknown): Promise<unknown>;
  jobQueue: { insert(job: { gotTimerToExecute?: boolean }): unknown };
}

/** Until the hook it returns is disabled, every timer created that `pick` accepts is unref'd. */
function unrefTimers(pick: (timer: NodeJS.Timeout) => boolean): AsyncHook {
  return createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'Timeout' && pick(resource as NodeJS.Timeout)) (resource as NodeJS.Timeout).unref();
    },
  }).enable();
}

/** The near-future timer's callback is `() => { this.jobProcessing(); }`. */
const callsJobProcessing = (timer: NodeJS.Timeout) =>
  /jobProcessing/.test(String((timer as unknown as { _onTimeout?: unknown })._onTimeout));

/** After `agenda.start()`: no timer Agenda forgets to clear keeps the process alive. */
export function unrefJobWatchdogs(agenda: Agenda): void {
  const processor = (agenda as unknown as { jobProcessor?: Partial<ProcessorInternals> }).jobProcessor;
  const runOrRetry = processor?.runOrRetry;
  const queue = processor?.jobQueue;
  const insert = queue?.insert;
  if (!processor || typeof runOrRetry !== 'function' || !queue || typeof insert !== 'function') {
    throw new Error(
      'Agenda has no jobProcessor.runOrRetry or jobQueue.insert any more (an upgrade?): see host/scheduler/agenda-watchdog.ts',
    );
  }
  processor.runOrRetry = function watched(this: ProcessorInternals, job: unknown) {
    const hook = unrefTimers(() => true);
    try {
      return runOrRetry.call(this, job);
    } finally {
      hook.disable();
    }
  };
  queue.insert = function inserted(this: unknown, job: { gotTimerToExecute?: boolean }) {
    const result = insert.call(this, job);
    // A job without its timer yet gets one in the same synchronous span, right after this
    // returns: watch until the span ends (a microtask runs only after it).
    if (!job.gotTimerToExecute) {
      const hook = unrefTimers(callsJobProcessing);
      queueMicrotask(() => hook.disable());
    }
    return result;
  };
}
