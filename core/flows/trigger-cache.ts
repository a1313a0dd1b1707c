import type { Collection } from '../store/port.js';
import type { FlowRecord } from './model.js';

/** Flows kept in memory; a host with more live triggers reads the rest per request. */
const CACHED_FLOWS = 10_000;

/**
 * The flow records the webhook trigger reads, kept in memory between requests.
 *
 * Every accepted trigger request needs its flow (name, pipeline, webhook settings), and the
 * read and JSON decode of that record were a sixth of the request's cost in the trigger
 * benchmark's profile. The cache is used only where it is exact: a store this process
 * alone writes (the embedded file, held exclusively), where every write of a flow's
 * trigger-relevant fields goes through FlowsService, which calls `forget`. On a store other
 * hosts write too (MongoDB), a host cannot learn of another host's change without a read,
 * so there every request reads its flow: a revoked token or rotated secret applies at once
 * on every host.
 *
 * What is kept is the record as it was read, shared by every request that reads it: callers
 * must not change it. (It is not frozen: checking an HMAC template fills in the defaults it
 * already has, in place.) Its run-state fields (running mark, last run, counters) are written on every run
 * without invalidating it, so they may be stale; callers read only the name, pipeline,
 * schedule and webhook settings.
 */
export class FlowTriggerCache {
  private readonly entries = new Map<number, FlowRecord>();
  /** Bumped by every `forget`: a read that started before a change is not kept. */
  private generation = 0;

  constructor(
    private readonly collection: () => Collection<FlowRecord>,
    private readonly exact: boolean,
  ) {}

  async get(flowId: number): Promise<FlowRecord | null> {
    if (!this.exact) return this.collection().findOne({ flow_id: flowId });
    const cached = this.entries.get(flowId);
    if (cached) return cached;
    const generation = this.generation;
    const found = await this.collection().findOne({ flow_id: flowId });
    if (!found || generation !== this.generation) return found;
    if (this.entries.size >= CACHED_FLOWS) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(flowId, found);
    return found;
  }

  /** A flow's trigger-relevant fields changed (or it is gone); null: any number of flows. */
  forget(flowId: number | null): void {
    this.generation++;
    if (flowId === null) this.entries.clear();
    else this.entries.delete(flowId);
  }
}
