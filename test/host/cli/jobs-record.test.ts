// Issue 53: `flowhost jobs show N` shows a run's record: what started it, and under each
// step the items it passed on (for a failed step, the items it was given); --packets --json
// adds each step's input and output bodies.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import { ITEM_SECRET, newRemote, recordProbe, twoStepFlow, type Remote } from '../../support/run-record-probe.js';
import type { Host } from '../../../host/host.js';
import type { TestHost } from '../../../sdk/testing/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Ctx = { host: Host; dataDir: string; remote: Remote; jobId: number };
const test = suite<Ctx>('cli: jobs show prints the run record');

test.before(async (ctx) => {
  ctx.remote = newRemote();
  Object.assign(ctx, await startCliHost({}, [recordProbe(ctx.remote)]));
  const api = {
    request: (method: string, path: string, options?: { body?: unknown }) => hostApi(ctx.dataDir, method, path, options?.body),
  } as unknown as Pick<TestHost, 'request'>;
  const { flowId } = await twoStepFlow(api);
  ctx.remote.failAt = 3;
  const ran = await run(ctx, ['flows', 'run', String(flowId), '--json']);
  assert.is(ran.status, 1, 'the publish fails at the third item');
  ctx.jobId = (JSON.parse(ran.stdout) as { job_id: number }).job_id;
});
test.after(async (ctx) => {
  await ctx.host.stop();
});

test('jobs show names what started the run and lists each step’s items', async (ctx) => {
  const text = await run(ctx, ['jobs', 'show', String(ctx.jobId)]);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, /^Started by: execute by \S+$/m);
  assert.match(text.stdout, /Step 1 fetch \(rec-feed\), items out:\n {2}urn:rec:1 "Story 1"\n(?: {2}.*\n){3} {2}urn:rec:5 "Story 5"/);
  assert.match(text.stdout, /Step 2 publish \(rec-pub\), items given:\n {2}urn:rec:1 "Story 1"/);
});

test('jobs show --packets --json has each step’s input and output, secrets masked', async (ctx) => {
  const job = await json<Body>(ctx, ['jobs', 'show', String(ctx.jobId), '--packets']);
  assert.is(job.steps[0].output.count, 5);
  assert.equal(
    job.steps[1].input.items.map((i: Body) => i.data.guid),
    [1, 2, 3, 4, 5].map((n) => `urn:rec:${n}`),
  );
  assert.is(job.steps[1].output, null);
  assert.is(job.trigger.kind, 'execute');
  assert.not.ok(JSON.stringify(job).includes(ITEM_SECRET));
});

test.run();
