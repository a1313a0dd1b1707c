import type { JobStatus } from '../jobs/model.js';

/** What draining a flow's queue needs from the engine and the stores. */
export interface FlowQueueSteps {
  /** The job running the flow now; null when free, undefined when the flow is gone. */
  runningJobOf(flowId: number): Promise<number | null | undefined>;
  /** The oldest queued (webhook) jobs of the flow, oldest first; as many as the store lets one host read ahead (see JobsService.oldestQueued). */
  oldestQueued(flowId: number): Promise<number[]>;
  /** Runs the job taken from the flow's queue: its final status, 'queued' when put back, null when another worker had it. */
  run(jobId: number, flowId: number): Promise<JobStatus | 'queued' | null>;
  /** A drain loop failed (it stops; the next ask starts a new one). */
  failed(flowId: number, error: unknown): void;
}

/**
 * Webhook jobs wait in their flow's queue while the flow runs, and start one after another,
 * oldest first. One drain loop per flow in this process: under a burst of webhooks every
 * accepted request asks, and each asking would otherwise query the queue and race for the
 * same job. An ask while the loop runs only asks it for one more look. Apart from the
 * engine, which runs a job; this only orders who runs next.
 */
export class FlowQueues {
  /** Flows whose queue this process is draining, and whether someone asked for another look. */
  private readonly draining = new Map<number, boolean>();
  /** Set by a graceful stop: runs under way end, no queued job starts here any more. */
  private stopped = false;

  /** `track`: each drain loop, so a graceful stop can wait for it. */
  constructor(
    private readonly steps: FlowQueueSteps,
    private readonly track: (loop: Promise<unknown>) => void,
  ) {}

  /**
   * Starts the oldest queued job of the flow, if any and if the flow is free. A busy flow
   * asks again when its run ends; callers store their job before asking, so one of the two
   * always sees it.
   */
  ask(flowId: number): void {
    if (this.stopped) return;
    if (this.draining.has(flowId)) {
      this.draining.set(flowId, true);
      return;
    }
    this.draining.set(flowId, true);
    const loop = this.drain(flowId)
      .catch((error: unknown) => this.steps.failed(flowId, error))
      .finally(() => this.draining.delete(flowId));
    this.track(loop);
  }

  /**
   * For a graceful stop: each loop lets its running job end and takes no other. Without it
   * a stop under a backlog ran the whole queue (thousands of runs) until the shutdown bound
   * cut a run off midway; the jobs left stay queued, and the next start (engine.resumeQueued)
   * or another host takes them.
   */
  stop(): void {
    this.stopped = true;
  }

  /**
   * A job of the flow went back to its queue (its run found the flow busy): a loop's
   * read-ahead no longer starts with the oldest, so it reads the queue again.
   */
  requeued(flowId: number): void {
    this.stale.add(flowId);
  }
  private readonly stale = new Set<number>();

  private async drain(flowId: number): Promise<void> {
    // Whether this loop's last run just released the flow: then the next run's own lock
    // says whether another took it meanwhile, and reading the mark first is a read for nothing.
    let handedOver = false;
    // The queue as last read, oldest first: taken one by one until it is empty, stale or a
    // run did not go as read (each run's claim still checks the job is pending).
    let ahead: number[] = [];
    while (this.draining.get(flowId)) {
      // Reset before looking: a job stored after this point asks again, one stored before
      // it is seen by the query below.
      this.draining.set(flowId, false);
      // The embedded store answers synchronously, so a chain of runs would otherwise
      // advance in microtasks alone and starve the HTTP server until the queue is empty.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return;
      if (!handedOver && (await this.steps.runningJobOf(flowId)) !== null) return; // busy (its end asks again), or gone
      handedOver = false;
      if (this.stale.delete(flowId)) ahead = [];
      if (ahead.length === 0) ahead = await this.steps.oldestQueued(flowId);
      const queued = ahead.shift();
      if (queued === undefined) continue;
      const status = await this.steps.run(queued, flowId);
      handedOver = status !== null && status !== 'queued';
      // Another runner had it, or it went back to the queue: read the queue again.
      if (!handedOver) ahead = [];
      // The run's end asked for the next one (the flag is set again).
    }
  }
}
