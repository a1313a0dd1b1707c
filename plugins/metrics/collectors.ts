/**
 * The Prometheus collectors: one registry per host (several hosts in one process, as in
 * tests, never share counters), fed by the host's measuring hooks and read at scrape time.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StoreSpace } from '../../sdk/contract/jobs.js';
import type { JobOutcome, RequestTiming, ScheduledRunTiming, StepTiming, StoreOperationTiming } from '../../sdk/index.js';

/** Seconds: from a quick cached GET to a slow AI step. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const RUN_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300];
/** Seconds late after a schedule slot: the target is under 1 s; minutes mean a backlog. */
const LATENESS_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300];
/** Seconds: an embedded read takes tens of microseconds, a MongoDB round trip a millisecond or more. */
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** The label for the store-wide operations (nextId, bulkWrite), which name no collection. */
const WHOLE_STORE = '(store)';

export interface Collectors {
  registry: Registry;
  request(timing: RequestTiming): void;
  step(timing: StepTiming): void;
  job(outcome: JobOutcome): void;
  scheduled(timing: ScheduledRunTiming): void;
  storeOperation(timing: StoreOperationTiming): void;
}

export function createCollectors(
  queueDepth: (status: 'pending' | 'processing') => Promise<number>,
  storeSpace: () => Promise<StoreSpace | null> = async () => null,
): Collectors {
  const registry = new Registry();
  // process_* and nodejs_* (CPU, memory, handles, GC, event-loop lag and its percentiles).
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'flowhost_http_requests_total',
    help: 'Answered HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'flowhost_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'flowhost_jobs_total',
    help: 'Finished runs by what started them and their final status.',
    labelNames: ['source', 'status'],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'flowhost_job_duration_seconds',
    help: 'Run durations, claim to final state, by source.',
    labelNames: ['source'],
    buckets: RUN_BUCKETS,
    registers: [registry],
  });
  const stepDuration = new Histogram({
    name: 'flowhost_step_duration_seconds',
    help: 'Step durations by step type, handler and outcome.',
    labelNames: ['step_type', 'handler', 'status'],
    buckets: RUN_BUCKETS,
    registers: [registry],
  });
  const lateness = new Histogram({
    name: 'flowhost_scheduler_lateness_seconds',
    help: 'How late scheduled runs started after their slot (slot to job record).',
    buckets: LATENESS_BUCKETS,
    registers: [registry],
  });
  const storeLatency = new Histogram({
    name: 'flowhost_store_operation_duration_seconds',
    help: 'Store operations by collection and operation, as the services and plugins call them (a batched insert counts once).',
    labelNames: ['collection', 'operation'],
    buckets: STORE_BUCKETS,
    registers: [registry],
  });
  const storeFailures = new Counter({
    name: 'flowhost_store_operation_failures_total',
    help: 'Store operations that failed (a duplicate key, an unreachable database...), by collection and operation.',
    labelNames: ['collection', 'operation'],
    registers: [registry],
  });
  new Gauge({
    name: 'flowhost_jobs_waiting',
    help: 'Jobs not finished yet, by status (pending: accepted, not started; processing: running).',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const [pending, processing] = await Promise.all([queueDepth('pending'), queueDepth('processing')]);
      this.set({ status: 'pending' }, pending);
      this.set({ status: 'processing' }, processing);
    },
  });
  storeGauges(registry, storeSpace);
  return {
    registry,
    request(timing) {
      requests.inc({ method: timing.method, route: timing.route, status: String(timing.status) });
      latency.observe({ method: timing.method, route: timing.route }, timing.durationMs / 1000);
    },
    step(timing) {
      stepDuration.observe(
        { step_type: timing.stepType, handler: timing.handlerSlug ?? 'none', status: timing.status },
        timing.durationMs / 1000,
      );
    },
    job(outcome) {
      const source = outcome.source ?? 'unknown';
      jobs.inc({ source, status: outcome.status });
      if (outcome.durationMs !== undefined) jobDuration.observe({ source }, outcome.durationMs / 1000);
    },
    scheduled(timing) {
      lateness.observe(timing.latenessMs / 1000);
    },
    storeOperation(timing) {
      const labels = { collection: timing.collection || WHOLE_STORE, operation: timing.operation };
      storeLatency.observe(labels, timing.durationMs / 1000);
      if (timing.failed) storeFailures.inc(labels);
    },
  };
}

/**
 * The store's size, read at scrape time: the embedded file's pages and its free pages; on
 * MongoDB, dbStats' storage and index bytes (no free figure where dbStats gives none). A
 * store that cannot tell shows neither series. Labelled by store kind.
 */
function storeGauges(registry: Registry, storeSpace: () => Promise<StoreSpace | null>): void {
  let last: Promise<StoreSpace | null> | null = null;
  // Both gauges are collected in one scrape: one read of the store serves them.
  const read = () => {
    last ??= storeSpace()
      .catch(() => null)
      .finally(() => setImmediate(() => (last = null)));
    return last;
  };
  new Gauge({
    name: 'flowhost_store_size_bytes',
    help: 'Bytes the store takes (embedded: page_count × page_size of the database file; MongoDB: dbStats storage and index size).',
    labelNames: ['store'],
    registers: [registry],
    async collect() {
      const space = await read();
      this.reset();
      if (space) this.set({ store: space.kind }, space.bytes);
    },
  });
  new Gauge({
    name: 'flowhost_store_free_bytes',
    help: 'Of the store size, bytes free for reuse (embedded: the freelist pages; a prune leaves them, a vacuum gives them back).',
    labelNames: ['store'],
    registers: [registry],
    async collect() {
      const space = await read();
      this.reset();
      if (space && space.freeBytes !== null) this.set({ store: space.kind }, space.freeBytes);
    },
  });
}
