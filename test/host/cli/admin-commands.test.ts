// Issue 31: the administrative operations the API has and the CLI lacked: flows delete,
// duplicate and problems, jobs show, pipelines delete. Destructive ones ask first and
// refuse without a terminal unless --yes; a missing id is named ("Flow 12 does not exist").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string; pipelineId: number; flowId: number };
const test = suite<Ctx>('cli: flows delete/duplicate/problems, jobs show, pipelines delete');

test.before(async (ctx) => {
  Object.assign(ctx, await startCliHost({}));
  ctx.pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Admin', '--step', 'fetch'])).pipeline_id;
  ctx.flowId = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(ctx.pipelineId), '--name', 'Original', '--schedule', 'daily'])).flow_id;
});
test.after(async (ctx) => {
  await ctx.host.stop();
});

test('flows duplicate copies the flow and prints the copy', async (ctx) => {
  const copy = await json<{ flow_id: number; flow_name: string; pipeline_id: number; scheduling_config: { interval: string } }>(ctx, ['flows', 'duplicate', String(ctx.flowId)]);
  assert.is.not(copy.flow_id, ctx.flowId);
  assert.is(copy.pipeline_id, ctx.pipelineId);
  assert.equal(copy.scheduling_config.interval, 'daily');
  const stored = await hostApi(ctx.dataDir, 'GET', `/flows/${copy.flow_id}`);
  assert.is(stored.status, 200);
  const text = await run(ctx, ['flows', 'duplicate', String(ctx.flowId)]);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`Flow ${ctx.flowId} copied as flow \\d+ "`));
});

test('flows delete refuses without a terminal unless --yes, then deletes', async (ctx) => {
  const victim = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(ctx.pipelineId), '--name', 'Doomed'])).flow_id;
  const refused = await run(ctx, ['flows', 'delete', String(victim)]);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, /--yes/);
  assert.is((await hostApi(ctx.dataDir, 'GET', `/flows/${victim}`)).status, 200, 'nothing deleted without confirmation');

  const deleted = await run(ctx, ['flows', 'delete', String(victim), '--yes']);
  assert.is(deleted.status, 0, deleted.stderr);
  assert.match(deleted.stdout, new RegExp(`Flow ${victim} "Doomed" deleted`));
  assert.is((await hostApi(ctx.dataDir, 'GET', `/flows/${victim}`)).status, 404);

  const again = await run(ctx, ['flows', 'delete', String(victim), '--yes', '--json']);
  assert.is(again.status, 1);
  assert.is(again.stdout, '');
  assert.match(again.stderr, new RegExp(`Flow ${victim} does not exist`));
});

test('a missing flow, job or pipeline is named in words', async (ctx) => {
  for (const [args, message] of [
    [['flows', 'show', '9999'], 'Flow 9999 does not exist'],
    [['flows', 'duplicate', '9999'], 'Flow 9999 does not exist'],
    [['jobs', 'show', '9999'], 'Job 9999 does not exist'],
    [['pipelines', 'show', '9999'], 'Pipeline 9999 does not exist'],
    [['pipelines', 'delete', '9999', '--yes'], 'Pipeline 9999 does not exist'],
  ] as const) {
    const res = await run(ctx, [...args]);
    assert.is(res.status, 1, args.join(' '));
    assert.match(res.stderr, message);
  }
});

test('jobs show prints one job; flows problems lists flows that keep failing', async (ctx) => {
  const failing = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(ctx.pipelineId), '--name', 'Broken'])).flow_id;
  const ran = await run(ctx, ['flows', 'run', String(failing), '--json']);
  assert.is(ran.status, 1, 'a flow with no handler fails');
  const jobId = (JSON.parse(ran.stdout) as { job_id: number }).job_id;

  const job = await json<{ job_id: number; status: string; flow_id: number; error: string }>(ctx, ['jobs', 'show', String(jobId)]);
  assert.equal([job.job_id, job.status, job.flow_id], [jobId, 'failed', failing]);
  const text = await run(ctx, ['jobs', 'show', String(jobId)]);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`Job ${jobId}: failed`));

  const problems = await json<{ threshold: number; problem_flows: Array<{ flow_id: number; consecutive_failures: number }> }>(ctx, ['flows', 'problems', '--threshold', '1']);
  assert.is(problems.threshold, 1);
  assert.equal(problems.problem_flows.map((f) => [f.flow_id, f.consecutive_failures]), [[failing, 1]]);
  const none = await json<{ problem_flows: unknown[] }>(ctx, ['flows', 'problems']);
  assert.equal(none.problem_flows, [], 'the default threshold (3) is not reached');
});

test('pipelines delete removes the pipeline with its flows, after confirmation', async (ctx) => {
  const refused = await run(ctx, ['pipelines', 'delete', String(ctx.pipelineId)]);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, /--yes/);
  assert.is((await hostApi(ctx.dataDir, 'GET', `/pipelines/${ctx.pipelineId}`)).status, 200);

  const deleted = await json<{ pipeline_id: number; deleted_flows: number; flow_ids: number[] }>(ctx, ['pipelines', 'delete', String(ctx.pipelineId), '--yes']);
  assert.is(deleted.pipeline_id, ctx.pipelineId);
  assert.is(deleted.deleted_flows, deleted.flow_ids.length);
  assert.ok(deleted.flow_ids.includes(ctx.flowId));
  assert.is((await hostApi(ctx.dataDir, 'GET', `/pipelines/${ctx.pipelineId}`)).status, 404);
  assert.is((await hostApi(ctx.dataDir, 'GET', `/flows/${ctx.flowId}`)).status, 404);
});

test.run();
