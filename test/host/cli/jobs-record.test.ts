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

test('jobs retry from the failed step publishes the rest once; a second retry is refused in words', async (ctx) => {
  ctx.remote.failAt = null;
  const retry = await json<Body>(ctx, ['jobs', 'retry', String(ctx.jobId)]);
  assert.equal(
    { retry_of: retry.retry_of, from: retry.from, status: retry.status },
    { retry_of: ctx.jobId, from: 'failed_step', status: 'pending' },
  );
  const deadline = Date.now() + 10_000;
  let shown = await json<Body>(ctx, ['jobs', 'show', String(retry.job_id)]);
  while (['pending', 'processing'].includes(shown.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    shown = await json<Body>(ctx, ['jobs', 'show', String(retry.job_id)]);
  }
  assert.is(shown.status, 'completed', JSON.stringify(shown));
  assert.equal(
    ctx.remote.posted,
    [1, 2, 3, 4, 5].map((n) => `urn:rec:${n}`),
  );
  const text = await run(ctx, ['jobs', 'show', String(retry.job_id)]);
  assert.match(text.stdout, new RegExp(`^Started by: retry of job ${ctx.jobId} from the failed step by \\S+$`, 'm'));
  const original = await run(ctx, ['jobs', 'show', String(ctx.jobId)]);
  assert.match(original.stdout, new RegExp(`^Retried by: job ${retry.job_id}$`, 'm'));
  const again = await run(ctx, ['jobs', 'retry', String(ctx.jobId), '--from', 'start']);
  assert.is(again.status, 1);
  assert.match(again.stderr, new RegExp(`Job ${ctx.jobId} was already retried by job ${retry.job_id}`));
  const bad = await run(ctx, ['jobs', 'retry', String(ctx.jobId), '--from', 'middle']);
  assert.is(bad.status, 2, 'a usage error');
  assert.match(bad.stderr, /Invalid values|Choices/);
});

test.run();
