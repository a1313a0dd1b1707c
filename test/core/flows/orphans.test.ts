// What makes a flow an orphan (issue 54), alone: FlowOrphans.missing against registries that
// hold some names and not others. The whole path (boot, problem flows, schedule, run, the
// plugin back) on both stores is test/core/workflows/orphan-flows.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FlowOrphans, blocksRun, notScheduledDisplay } from '../../../core/flows/orphans.js';
import type { WorkflowParts } from '../../../core/flows/workflow-parts.js';
import type { DocumentStore } from '../../../core/store/port.js';
import type { FlowRecord } from '../../../core/flows/model.js';
import type { PipelineRecord } from '../../../core/pipelines/model.js';

const test = suite('flows: what makes a flow an orphan');

const loaded: Record<string, string[]> = { handlers: ['rss'], stepTypes: ['fetch', 'publish'], intervals: ['hourly', 'manual'] };
/** A point's reading that holds the names above. */
const point = (name: string) => ({ get: (key: string) => (loaded[name]!.includes(key) ? { key } : undefined) });
const parts = { handlers: point('handlers'), stepTypes: point('stepTypes'), intervals: point('intervals') } as unknown as WorkflowParts;
const orphans = new FlowOrphans({} as DocumentStore, parts);

const uuid = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
const pipeline = {
  pipeline_id: 3,
  steps: [
    { pipeline_step_id: `3_${uuid(2)}`, step_type: 'translate', execution_order: 1 },
    { pipeline_step_id: `3_${uuid(1)}`, step_type: 'fetch', execution_order: 0 },
    { pipeline_step_id: `3_${uuid(3)}`, step_type: 'publish', execution_order: 2 },
  ],
} as unknown as PipelineRecord;
const key = (n: number) => `3_${uuid(n)}`.replace(/-/g, '_');
const flow = (steps: FlowRecord['steps'], interval = 'hourly') =>
  ({ flow_id: 7, pipeline_id: 3, flow_name: 'F', steps, scheduling_config: { interval } }) as unknown as FlowRecord;

test('a missing handler, step type and interval are each named, in run order, the interval last, with the plugin when known', () => {
  const missing = orphans.missing(
    flow(
      {
        [key(1)]: { handler_slug: 'gone-feed', handler_config: {}, enabled: true },
        [key(3)]: { handler_slug: 'rss', handler_config: {}, enabled: true },
      },
      'fortnightly',
    ),
    pipeline,
    (kind, name) => (kind === 'handler' && name === 'gone-feed' ? 'gone-plugin' : null),
  );
  assert.equal(
    missing.map((m) => [m.kind, m.name, m.flow_step_id, m.plugin]),
    [
      ['handler', 'gone-feed', `3_${uuid(1)}_7`, 'gone-plugin'],
      ['step_type', 'translate', `3_${uuid(2)}_7`, null],
      ['interval', 'fortnightly', null, null],
    ],
  );
  assert.is(
    missing[0]!.reason,
    `step 3_${uuid(1)}_7 names handler 'gone-feed', which no loaded plugin provides; it came from plugin 'gone-plugin', load it again`,
  );
  assert.is(missing[2]!.reason, "the schedule names interval 'fortnightly', which no loaded plugin provides");
  assert.equal(
    blocksRun(missing).map((m) => m.kind),
    ['handler', 'step_type'],
    'a missing interval does not stop a run',
  );
  assert.is(notScheduledDisplay(missing.slice(2)), "Not scheduled: interval 'fortnightly' missing");
});

test('a disabled step is not looked at (a run skips it); a whole flow misses nothing', () => {
  const disabled = { handler_slug: 'gone-feed', handler_config: {}, enabled: false };
  const whole = { [key(1)]: disabled, [key(2)]: { ...disabled }, [key(3)]: { handler_slug: 'rss', handler_config: {}, enabled: true } };
  assert.equal(orphans.missing(flow(whole), pipeline), []);
});

test.run();
