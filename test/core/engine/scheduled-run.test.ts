// What a schedule's firing starts, alone: fakes of flows, jobs, the engine and the logs
// (as flow-queue.test.ts fakes the engine), so each decision is seen without Agenda. The
// real path through Agenda on both stores is test/core/engine/scheduling.test.ts and
// test/host/scheduler/flow-run-handover.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ScheduledRuns, type ScheduledRunsDeps } from '../../../core/engine/scheduled-run.js';
import { HookCatalogue, type ScheduledRunTiming } from '../../../core/kernel/hooks.js';
import type { FlowRecord } from '../../../core/flows/model.js';
import type { JobRecord } from '../../../core/jobs/model.js';
import type { NewJob } from '../../../core/jobs/service.js';
import type { MissingContribution } from '../../../core/flows/orphans.js';

const test = suite('engine: scheduled runs (what a firing starts)');

const flow = (over: Partial<FlowRecord> = {}) =>
  ({ flow_id: 7, pipeline_id: 3, flow_name: 'Hourly digest', scheduling_config: { interval: 'hourly' }, ...over }) as FlowRecord;

/** Fakes that record what they were asked; `runEnds` settles a started run when the test says so. */
function harness(options: { flows?: FlowRecord[]; logsFail?: boolean; orphaned?: MissingContribution[] } = {}) {
  const flows = new Map((options.flows ?? [flow()]).map((f) => [f.flow_id, f]));
  const created: NewJob[] = [];
  const started: number[] = [];
  const unscheduled: number[] = [];
  const stored: Array<{ message: string; context?: Record<string, unknown> }> = [];
  const lines: Record<'info' | 'warn' | 'error', Array<{ fields: unknown; message: string }>> = { info: [], warn: [], error: [] };
  const ends = new Map<number, (status: 'completed' | 'failed') => void>();
  const line = (level: 'info' | 'warn' | 'error') => (fields: unknown, message?: string) =>
    void lines[level].push({ fields, message: message ?? '' });
  const hooks = new HookCatalogue();
  const deps: ScheduledRunsDeps = {
    flows: { record: async (id) => flows.get(id) ?? null, missingContributions: async () => options.orphaned ?? [] },
    jobs: {
      create: async (input) => {
        created.push(input);
        return { job_id: 100 + created.length, ...input } as unknown as JobRecord;
      },
    },
    schedule: { unschedule: async (id) => void unscheduled.push(id) },
    engine: {
      start: (jobId) => {
        started.push(jobId);
        return new Promise((resolve) => ends.set(jobId, resolve));
      },
    },
    intervals: {
      list: () => [{ value: 'hourly', label: 'Every hour', seconds: 3600 }],
      get: (value) => (value === 'hourly' ? { value: 'hourly', label: 'Every hour', seconds: 3600 } : undefined),
    },
    log: { info: line('info'), warn: line('warn'), error: line('error') } as ScheduledRunsDeps['log'],
    logs: {
      record: async (entry) => {
        if (options.logsFail) throw new Error('store down');
        stored.push(entry);
        return null;
      },
    },
    hooks,
  };
  return {
    runs: new ScheduledRuns(deps),
    created,
    started,
    unscheduled,
    stored,
    lines,
    hooks,
    end: (id: number, s: 'completed' | 'failed') => ends.get(id)!(s),
  };
}

/** Lets the promises the runs did not await (log writes, run ends) settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a firing stores a schedule job for the flow, logs who started it, and hands it to the engine without waiting for its end', async () => {
  const h = harness();
  // The run never ends in this test: scheduleFired still resolves (the scheduler's slot is free).
  const jobId = await h.runs.scheduleFired({ flowId: 7 });
  assert.is(jobId, 101);
  assert.equal(h.created, [{ flow_id: 7, pipeline_id: 3, label: 'Hourly digest', source: 'schedule' }]);
  assert.equal(h.started, [101]);
  await settle();
  const message = 'Flow 7 "Hourly digest" triggered by its schedule (Every hour): job 101';
  const context = { job_id: 101, flow_id: 7, pipeline_id: 3, trigger: 'schedule', interval: 'hourly' };
  assert.equal(h.stored, [{ level: 'info', message, context }], 'the searchable log has the trigger line');
  assert.equal(h.lines.info, [{ fields: context, message }], 'and so has the process log');
});

test('a flow deleted since its schedule was set: the schedule goes, no job is made, nothing starts', async () => {
  const h = harness({ flows: [] });
  assert.is(await h.runs.scheduleFired({ flowId: 9 }), null);
  assert.equal(h.unscheduled, [9]);
  assert.equal(h.created, []);
  assert.equal(h.started, []);
  await settle();
  assert.equal(h.stored, []);
});

test('a flow naming a handler no loaded plugin provides: skipped with a warning saying why, no job, its schedule kept', async () => {
  const reason = "step 3_x_7 names handler 'gone', which no loaded plugin provides; it came from plugin 'p', load it again";
  const h = harness({ orphaned: [{ kind: 'handler', name: 'gone', flow_step_id: '3_x_7', plugin: 'p', reason }] });
  assert.is(await h.runs.scheduleFired({ flowId: 7 }), null);
  assert.equal([h.created, h.started, h.unscheduled], [[], [], []]);
  assert.equal(h.lines.warn, [
    { fields: { flow_id: 7, orphaned: ['handler:gone'] }, message: `Flow 7 "Hourly digest" skipped by its schedule: ${reason}` },
  ]);
});

test("the log line names the scheduler's repeat when the flow's config has none, the raw value when no interval is registered", async () => {
  const h = harness({
    flows: [
      flow({ scheduling_config: {} as FlowRecord['scheduling_config'] }),
      flow({ flow_id: 8, scheduling_config: { interval: 'fortnightly' } }),
    ],
  });
  await h.runs.scheduleFired({ flowId: 7, repeatInterval: 'hourly' });
  await h.runs.scheduleFired({ flowId: 8 });
  await settle();
  assert.match(h.stored[0]!.message, /triggered by its schedule \(Every hour\)/);
  assert.match(h.stored[1]!.message, /triggered by its schedule \(fortnightly\)/);
  assert.is(h.stored[1]!.context?.interval, 'fortnightly');
});

test('a failed scheduled run is reported as a warning; the schedule goes on', async () => {
  const h = harness();
  const jobId = (await h.runs.scheduleFired({ flowId: 7 }))!;
  h.end(jobId, 'completed');
  await settle();
  assert.equal(h.lines.warn, [], 'a completed run warns nothing');
  const next = (await h.runs.scheduleFired({ flowId: 7 }))!;
  h.end(next, 'failed');
  await settle();
  assert.equal(h.lines.warn, [{ fields: { flow_id: 7, job_id: next }, message: 'Scheduled run failed; the schedule goes on' }]);
});

test('a log line that cannot be stored is reported and does not stop the run', async () => {
  const h = harness({ logsFail: true });
  assert.is(await h.runs.scheduleFired({ flowId: 7 }), 101);
  assert.equal(h.started, [101]);
  await settle();
  assert.equal(
    h.lines.error.map((l) => l.message),
    ['A log entry could not be stored'],
  );
});

test('scheduledRunStarted hears how late after its slot the job was stored; a tap that throws is logged, not thrown', async () => {
  const h = harness();
  const heard: ScheduledRunTiming[] = [];
  h.hooks.scheduledRunStarted.tap('probe', (timing) => void heard.push(timing));
  const slot = new Date(Date.now() - 5000);
  await h.runs.scheduleFired({ flowId: 7, scheduledFor: slot });
  assert.is(heard.length, 1);
  assert.equal({ ...heard[0]!, latenessMs: 0 }, { flowId: 7, jobId: 101, scheduledFor: slot, latenessMs: 0 });
  assert.ok(heard[0]!.latenessMs >= 5000, `lateness ${heard[0]!.latenessMs} ms`);
  // Without a slot (a job not locked by the scheduler) there is nothing to measure.
  await h.runs.scheduleFired({ flowId: 7 });
  assert.is(heard.length, 1);

  h.hooks.scheduledRunStarted.tap('broken', () => {
    throw new Error('tap broke');
  });
  assert.is(await h.runs.scheduleFired({ flowId: 7, scheduledFor: slot }), 103, 'the run is stored all the same');
  assert.ok(h.lines.warn.some((l) => l.message === 'A scheduledRunStarted tap failed'));
});

test('a delayed execute request that came due hands its stored job to the engine', () => {
  const h = harness();
  h.runs.delayedDue(42);
  assert.equal(h.started, [42]);
  assert.equal(h.created, [], 'no new job: POST /execute stored it');
});

test.run();
