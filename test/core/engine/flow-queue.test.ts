import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FlowQueues } from '../../../core/engine/flow-queue.js';

const test = suite('engine: per-flow queue');

/**
 * A fake of the engine and stores: queued job ids per flow, a running mark per flow, and
 * runs that end when the test says so. Every loop is tracked, so `idle()` waits for the
 * work itself, not for a fixed time.
 */
function harness(queued: Record<number, number[]>) {
  const running = new Map<number, number>();
  const started: number[] = [];
  const ends = new Map<number, () => void>();
  const loops: Promise<unknown>[] = [];
  let waiting: (() => void) | null = null;
  let maxConcurrentPerFlow = 0;
  const active = new Map<number, number>();
  let reads = 0;
  const queues: FlowQueues = new FlowQueues(
    {
      runningJobOf: async (flowId) => running.get(flowId) ?? null,
      // As on the embedded store: the queue read ahead, oldest first.
      oldestQueued: async (flowId) => {
        reads++;
        return [...(queued[flowId] ?? [])];
      },
      run: (jobId, flowId) => {
        queued[flowId] = (queued[flowId] ?? []).filter((id) => id !== jobId);
        running.set(flowId, jobId);
        started.push(jobId);
        const now = (active.get(flowId) ?? 0) + 1;
        active.set(flowId, now);
        maxConcurrentPerFlow = Math.max(maxConcurrentPerFlow, now);
        waiting?.();
        return new Promise((resolve) =>
          ends.set(jobId, () => {
            active.set(flowId, (active.get(flowId) ?? 1) - 1);
            running.delete(flowId);
            ends.delete(jobId);
            resolve('completed');
            // As the engine does: a run's end asks for the next queued job.
            queues.ask(flowId);
          }),
        );
      },
      failed: (_flowId, error) => {
        throw error;
      },
    },
    (loop) => void loops.push(loop),
  );
  return {
    queues,
    started,
    reads: () => reads,
    running,
    maxConcurrentPerFlow: () => maxConcurrentPerFlow,
    /** Resolves when `count` runs have started. */
    startedCount: (count: number) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (started.length >= count) resolve();
          else waiting = check;
        };
        check();
      }),
    end: (jobId: number) => {
      const end = ends.get(jobId);
      if (!end) throw new Error(`job ${jobId} is not running`);
      end();
    },
    /** Every loop started so far (and those they started) has ended. */
    async idle() {
      for (let seen = 0; seen < loops.length; seen = loops.length) await Promise.all(loops.slice(seen));
    },
  };
}

test('jobs of one flow run one at a time, oldest first', async () => {
  const h = harness({ 1: [10, 11, 12] });
  h.queues.ask(1);
  await h.startedCount(1);
  h.end(10);
  await h.startedCount(2);
  h.end(11);
  await h.startedCount(3);
  h.end(12);
  await h.idle();
  assert.equal(h.started, [10, 11, 12]);
  assert.is(h.maxConcurrentPerFlow(), 1);
});

test('a burst of asks while a run goes on starts no second run of the flow', async () => {
  const h = harness({ 1: [10, 11] });
  h.queues.ask(1);
  await h.startedCount(1);
  for (let i = 0; i < 20; i++) h.queues.ask(1);
  assert.equal(h.started, [10], 'the running job holds the flow');
  h.end(10);
  await h.startedCount(2);
  h.end(11);
  await h.idle();
  assert.equal(h.started, [10, 11]);
  assert.is(h.maxConcurrentPerFlow(), 1);
});

test('a flow another run holds is left to that run', async () => {
  const h = harness({ 1: [10] });
  h.running.set(1, 99);
  h.queues.ask(1);
  await h.idle();
  assert.equal(h.started, [], 'its end asks again');
});

test('different flows drain side by side', async () => {
  const h = harness({ 1: [10], 2: [20] });
  h.queues.ask(1);
  h.queues.ask(2);
  await h.startedCount(2);
  assert.equal([...h.started].sort(), [10, 20]);
  h.end(10);
  h.end(20);
  await h.idle();
});

test('a job queued while its flow drains is seen by the same loop', async () => {
  const queued: Record<number, number[]> = { 1: [10] };
  const h = harness(queued);
  h.queues.ask(1);
  await h.startedCount(1);
  queued[1] = [...(queued[1] ?? []), 11];
  h.queues.ask(1);
  h.end(10);
  await h.startedCount(2);
  h.end(11);
  await h.idle();
  assert.equal(h.started, [10, 11]);
});

test('a stop lets the running job end and starts no queued one (they wait for the next start)', async () => {
  const queued: Record<number, number[]> = { 1: [10, 11, 12] };
  const h = harness(queued);
  h.queues.ask(1);
  await h.startedCount(1);
  h.queues.stop();
  h.end(10);
  await h.idle();
  assert.equal(h.started, [10], 'no run started after the stop');
  assert.equal(queued[1], [11, 12], 'the rest stay queued');
  h.queues.ask(1);
  await h.idle();
  assert.equal(h.started, [10], 'an ask after the stop starts nothing');
});

test('the queue is read once for a backlog, not once per run', async () => {
  const h = harness({ 1: [10, 11, 12, 13, 14] });
  h.queues.ask(1);
  for (const [i, jobId] of [10, 11, 12, 13, 14].entries()) {
    await h.startedCount(i + 1);
    h.end(jobId);
  }
  await h.idle();
  assert.equal(h.started, [10, 11, 12, 13, 14]);
  assert.is(h.reads(), 2, 'one read for the five, one that finds the queue empty');
});

test('a job put back in the queue while the flow drains runs next, before the rest read ahead', async () => {
  const queued: Record<number, number[]> = { 1: [10, 11, 12] };
  const h = harness(queued);
  h.queues.ask(1);
  await h.startedCount(1);
  // Job 5's own run found the flow busy (run 10 holds it) and put it back, as the engine does.
  queued[1] = [5, ...(queued[1] ?? [])];
  h.queues.requeued(1);
  h.queues.ask(1);
  h.end(10);
  await h.startedCount(2);
  assert.equal(h.started, [10, 5], 'the oldest queued job, not the next one read ahead');
  h.end(5);
  await h.startedCount(3);
  h.end(11);
  await h.startedCount(4);
  h.end(12);
  await h.idle();
  assert.equal(h.started, [10, 5, 11, 12]);
});

test.run();
