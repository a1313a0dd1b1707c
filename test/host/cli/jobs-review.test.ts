// Issue 55: `flowhost jobs waiting` lists the jobs waiting at an approval step with each
// item, `flowhost jobs approve|reject <id> [--items a,b]` decide them; each with --json.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import { approvalFlow, approvalProbe, jobIn, newApprovalRemote, type ApprovalRemote } from '../../support/approval-probe.js';
import type { Host } from '../../../host/host.js';
import type { TestHost } from '../../../sdk/testing/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Ctx = { host: Host; dataDir: string; remote: ApprovalRemote; api: Pick<TestHost, 'request'> };
const test = suite<Ctx>('cli: jobs approve, reject, waiting');

test.before(async (ctx) => {
  ctx.remote = newApprovalRemote();
  Object.assign(ctx, await startCliHost({}, [approvalProbe(ctx.remote)]));
  ctx.api = {
    request: (method: string, path: string, options?: { body?: unknown }) => hostApi(ctx.dataDir, method, path, options?.body),
  } as unknown as Pick<TestHost, 'request'>;
});
test.after(async (ctx) => {
  await ctx.host.stop();
});

test('waiting lists the items; approve --items and reject decide them; the run publishes the approved', async (ctx) => {
  const flowId = await approvalFlow(ctx.api);
  const ran = await json<Body>(ctx, ['flows', 'run', String(flowId)]);
  const jobId = ran.job_id as number;
  await jobIn(ctx.api, jobId, ['waiting']);
  const text = await run(ctx, ['jobs', 'waiting']);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, /urn:appr:1\s+Story 1\s+pending/);
  const listed = await json<Body[]>(ctx, ['jobs', 'waiting']);
  const mine = listed.find((j) => j.job_id === jobId)!;
  assert.equal(
    mine.review.items.map((i: Body) => i.packet.data.title),
    ['Story 1', 'Story 2', 'Story 3'],
  );
  const approved = await json<Body>(ctx, ['jobs', 'approve', String(jobId), '--items', 'urn:appr:1,urn:appr:3']);
  assert.equal(approved.decided, ['urn:appr:1', 'urn:appr:3']);
  assert.is(approved.pending, 1);
  const unknown = await run(ctx, ['jobs', 'reject', String(jobId), '--items', 'urn:nope']);
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, /does not wait for item urn:nope/);
  const rejected = await run(ctx, ['jobs', 'reject', String(jobId)]);
  assert.is(rejected.status, 0, rejected.stderr);
  assert.match(rejected.stdout, /1 item rejected; the run goes on/);
  assert.is((await jobIn(ctx.api, jobId, ['completed', 'failed'])).status, 'completed');
  assert.equal(ctx.remote.posted, ['urn:appr:1', 'urn:appr:3']);
  const none = await run(ctx, ['jobs', 'waiting']);
  assert.match(none.stdout, /No job is waiting for review/);
  const late = await run(ctx, ['jobs', 'approve', String(jobId)]);
  assert.is(late.status, 1);
  assert.match(late.stderr, /only a waiting job can be approved or rejected/);
});

test('flows run says the job waits for review; jobs show names the wait; jobs cancel takes --yes', async (ctx) => {
  ctx.remote.count = 5;
  const flowId = await approvalFlow(ctx.api);
  const ran = await run(ctx, ['flows', 'run', String(flowId)]);
  assert.is(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /Job (\d+): waiting for review; decide with flowhost jobs approve\|reject \1/);
  assert.not.match(ran.stderr, /; waiting$/m, 'the progress line is not mistaken for the state');
  const jobId = Number(/Job (\d+)/.exec(ran.stdout)![1]);
  const help = await run(ctx, ['flows', 'run', '--help']);
  assert.match(help.stdout, 'waits for review');
  const shown = await run(ctx, ['jobs', 'show', String(jobId)]);
  assert.is(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /Waiting at step 2 for review: \d+ items? pending; no timeout/);
  const cancelled = await run(ctx, ['jobs', 'cancel', String(jobId), '--yes']);
  assert.is(cancelled.status, 0, cancelled.stderr);
  assert.is((await jobIn(ctx.api, jobId, ['cancelled'])).status, 'cancelled');
});

test.run();
