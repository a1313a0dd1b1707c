import type { JobsService } from '../jobs/service.js';
import type { FlowRunMarks } from '../flows/run-marks.js';
import type { Clock } from '../kernel/clock.js';

/**
 * How long a run's hold on its job and its flow lasts without a renewal. The process running
 * a job renews both every third of it (the job's `heartbeat_at`, the flow's `running_since`);
 * a hold not renewed for this long is a dead host's, and the sweep (engine.recoverStale)
 * fails its job and frees its flow. 30 s: a killed host's flows move again within
 * 30 s + one sweep interval (half a lease), well inside the 60 s docs/architecture.md promises.
 */
export const DEFAULT_RUN_LEASE_SECONDS = 30;

/** One run's hold: renewed on a timer until released; `lost` once a renewal found it gone. */
export interface RunHold {
  /** The job is no longer this run's (cancelled, or failed by a sweep while this host stalled). */
  readonly lost: boolean;
  /** The job was taken from this run in this process (a cancel): it stops at its next step. */
  lose(): void;
  release(): void;
}

/**
 * Renews the job's and its flow's hold every third of the lease. A renewal that matches
 * nothing means another party ended the job (a cancel, a sweep that took this host for
 * dead): the run stops at its next step boundary and its end write, guarded by the job
 * still being `processing`, changes nothing.
 */
export function holdRun(
  deps: { jobs: JobsService; runMarks: FlowRunMarks; clock: Clock; onError: (error: unknown) => void },
  leaseSeconds: number,
  jobId: number,
  flowId: number | null,
): RunHold {
  let lost = false;
  let renewing = false;
  const renew = async () => {
    if (renewing || lost) return;
    renewing = true;
    try {
      const at = deps.clock.now();
      if (!(await deps.jobs.renewLease(jobId, at))) lost = true;
      else if (flowId !== null && !(await deps.runMarks.renew(flowId, jobId, at))) lost = true;
    } catch (error) {
      deps.onError(error);
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => void renew(), Math.max(50, (leaseSeconds * 1000) / 3));
  timer.unref();
  return {
    get lost() {
      return lost;
    },
    lose: () => {
      lost = true;
    },
    release: () => clearInterval(timer),
  };
}
