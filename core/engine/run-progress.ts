import type { DataPacket } from '../kernel/contributions.js';
import type { JobsService } from '../jobs/service.js';
import type { ReleasedClaim, RunCheckpoint } from '../jobs/model.js';
import type { Checkpoints } from './checkpoint.js';

/**
 * What one run has done that outlives it: the items it claimed, the items its publish and
 * update steps have done (their claims stay when the run fails: they were published), and
 * its checkpoint (the next step and its input), so a retry starts where it failed and does
 * not publish anything twice. The engine tells it as it goes; it writes what must survive
 * a crash (core/engine/checkpoint.ts seals the packets).
 */
export class RunProgress {
  private readonly claims: ReleasedClaim[] = [];
  private readonly kept = new Set<string>();
  /** A resumed run's first step: the items its earlier run had done there, with their outputs. */
  private reuse: { index: number; done: Map<string, DataPacket[]> } | null = null;

  constructor(
    private readonly deps: { jobs: JobsService; checkpoints: Checkpoints },
    private readonly jobId: number,
  ) {}

  /** A fetch step claimed an item for this run. */
  claimed(claim: ReleasedClaim): void {
    this.claims.push(claim);
  }

  /** The run resumes at plan step `index`, where its earlier run had done `done`; its checkpoint says so first. */
  async resumeAt(checkpoint: RunCheckpoint): Promise<void> {
    this.reuse = { index: checkpoint.index, done: this.deps.checkpoints.done(checkpoint) };
    await this.deps.jobs.recordCheckpoint(this.jobId, checkpoint);
  }

  /** What an earlier run passed on for this item at this step, when it had done it. */
  doneBefore(index: number, itemId: string): DataPacket[] | undefined {
    return this.reuse?.index === index ? this.reuse.done.get(itemId) : undefined;
  }

  /**
   * A publish or update step has done one item. Written at once unless it is the step's
   * last (the step's end writes it with the step's record, one write fewer per run).
   */
  async done(itemId: string, output: DataPacket[], last: boolean): Promise<void> {
    this.kept.add(itemId);
    if (!last) await this.deps.jobs.recordDone(this.jobId, this.deps.checkpoints.sealDone(itemId, output));
  }

  /** What a step's end writes: the next step's checkpoint (none after the last) and the items done so far. */
  stepEnded(
    next: { flowStepId: string; index: number } | null,
    packets: readonly DataPacket[],
  ): {
    checkpoint?: RunCheckpoint;
    kept: readonly string[];
  } {
    return {
      ...(next ? { checkpoint: this.deps.checkpoints.at(next.flowStepId, next.index, packets) } : {}),
      kept: [...this.kept],
    };
  }

  /** A failed run's claims: those of the items it published stay, the rest go back (and are named for a retry). */
  release(): { keep: string[]; released: ReleasedClaim[] } {
    return { keep: [...this.kept], released: this.claims.filter((c) => !this.kept.has(c.item_id)) };
  }
}
