// Issue 31: the administrative operations the API has and the CLI lacked: flows delete,
// duplicate and problems, jobs show, pipelines delete, rename and steps. Destructive ones
// ask first and refuse without a terminal unless --yes; a missing id is named ("Flow 12
// does not exist") with the API's code.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string; pipelineId: number; flowId: number };
const test = suite<Ctx>('cli: flows delete/duplicate/problems, jobs show, pipelines delete/rename/steps');

test.before(async (ctx) => {
  Object.assign(ctx, await startCliHost({}));
  ctx.pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Admin', '--step', 'fetch'])).pipeline_id;
  ctx.flowId = (
    await json<{ flow_id: number }>(ctx, ['flows', 'create', String(ctx.pipelineId), '--name', 'Original', '--schedule', 'daily'])
  ).flow_id;
});
test.after(async (ctx) => {
  await ctx.host.stop();
});

test('flows duplicate copies the flow and prints the copy', async (ctx) => {
  const copy = await json<{ flow_id: number; flow_name: string; pipeline_id: number; scheduling_config: { interval: string } }>(ctx, [
    'flows',
    'duplicate',
    String(ctx.flowId),
  ]);
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

  const problems = await json<{ threshold: number; problem_flows: Array<{ flow_id: number; consecutive_failures: number }> }>(ctx, [
    'flows',
    'problems',
    '--threshold',
    '1',
  ]);
  assert.is(problems.threshold, 1);
  assert.equal(
    problems.problem_flows.map((f) => [f.flow_id, f.consecutive_failures]),
    [[failing, 1]],
  );
  const none = await json<{ problem_flows: unknown[] }>(ctx, ['flows', 'problems']);
  assert.equal(none.problem_flows, [], 'the default threshold (3) is not reached');
});

test('a handler picked without its required settings: flows show and flows problems say what it needs', async (ctx) => {
  const flowId = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(ctx.pipelineId), '--name', 'Half'])).flow_id;
  const picked = await json<{ steps: Array<{ handler: string; missing_settings: string[] }> }>(ctx, [
    'flows',
    'config',
    String(flowId),
    '--handler',
    '1=rss',
  ]);
  assert.equal(
    picked.steps.map((s) => [s.handler, s.missing_settings]),
    [['rss', ['feed_url']]],
  );
  const shown = await run(ctx, ['flows', 'show', String(flowId)]);
  assert.is(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /NEEDS/);
  assert.match(shown.stdout, /rss .*feed_url/);
  const problems = await run(ctx, ['flows', 'problems']);
  assert.is(problems.status, 0, problems.stderr);
  assert.match(problems.stdout, new RegExp(`${flowId}\\s+Half\\s+0\\s+0\\s+rss: feed_url`));
});

type StepRow = { position: number; type: string; label: string; id: string };
type PipelineOut = { pipeline_id: number; pipeline_name: string; steps: StepRow[] };
type StoredPipeline = {
  pipeline_name: string;
  pipeline_steps: Array<Record<string, unknown> & { pipeline_step_id: string; step_type: string; execution_order: number }>;
};
const storedPipeline = async (ctx: Ctx, id: number) =>
  ((await hostApi(ctx.dataDir, 'GET', `/pipelines/${id}`)).body.data as { pipeline: StoredPipeline }).pipeline;
const storedTypes = async (ctx: Ctx, id: number) =>
  (await storedPipeline(ctx, id)).pipeline_steps.sort((a, b) => a.execution_order - b.execution_order).map((s) => s.step_type);

test('pipelines rename stores the new name; a missing pipeline is refused with its code', async (ctx) => {
  const id = (await json<PipelineOut>(ctx, ['pipelines', 'create', 'Before', '--step', 'fetch'])).pipeline_id;
  const renamed = await json<PipelineOut>(ctx, ['pipelines', 'rename', String(id), 'After']);
  assert.equal([renamed.pipeline_id, renamed.pipeline_name, renamed.steps.map((s) => s.type)], [id, 'After', ['fetch']]);
  assert.is((await storedPipeline(ctx, id)).pipeline_name, 'After');
  const text = await run(ctx, ['pipelines', 'rename', String(id), 'After again']);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`Pipeline ${id} renamed "After again"`));

  const missing = await run(ctx, ['pipelines', 'rename', '9999', 'Nobody']);
  assert.is(missing.status, 1);
  assert.is(missing.stdout, '');
  assert.match(missing.stderr, /^flowhost: Pipeline 9999 does not exist \(pipeline_not_found\)$/m);
  assert.is((await storedPipeline(ctx, id)).pipeline_name, 'After again');
});

test('pipelines steps add, reorder and remove change the stored steps, steps named by position or type', async (ctx) => {
  const id = (await json<PipelineOut>(ctx, ['pipelines', 'create', 'Steps', '--step', 'fetch', '--step', 'publish'])).pipeline_id;
  const flowId = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(id), '--name', 'Follows'])).flow_id;

  const added = await json<PipelineOut & { added: StepRow }>(ctx, [
    'pipelines',
    'steps',
    'add',
    String(id),
    'ai',
    '--at',
    '2',
    '--label',
    'Rewrite',
  ]);
  assert.equal([added.added.position, added.added.type, added.added.label], [2, 'ai', 'Rewrite']);
  assert.equal(
    added.steps.map((s) => s.type),
    ['fetch', 'ai', 'publish'],
  );
  assert.equal(await storedTypes(ctx, id), ['fetch', 'ai', 'publish']);
  const flowSteps = (await hostApi(ctx.dataDir, 'GET', `/flows/${flowId}`)).body.data as {
    flow_config: Record<string, { pipeline_step_id: string }>;
  };
  assert.ok(
    Object.values(flowSteps.flow_config).some((s) => s.pipeline_step_id === added.added.id),
    'the flow has a step for the new one',
  );
  const bad = await run(ctx, ['pipelines', 'steps', 'add', String(id), 'juggle']);
  assert.is(bad.status, 1);
  assert.match(bad.stderr, /Unknown step type 'juggle'.*\(invalid_step_type\)$/m);
  assert.equal(await storedTypes(ctx, id), ['fetch', 'ai', 'publish']);

  const reordered = await json<PipelineOut>(ctx, ['pipelines', 'steps', 'reorder', String(id), 'publish', '1', '2']);
  assert.equal(
    reordered.steps.map((s) => s.type),
    ['publish', 'fetch', 'ai'],
  );
  assert.equal(await storedTypes(ctx, id), ['publish', 'fetch', 'ai']);
  const twice = await run(ctx, ['pipelines', 'steps', 'reorder', String(id), '1', '1', '2']);
  assert.is(twice.status, 1);
  assert.match(twice.stderr, /every step of the pipeline exactly once \(invalid_step_order\)/);
  const text = await run(ctx, ['pipelines', 'steps', 'reorder', String(id), 'fetch', 'ai', 'publish']);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, /steps reordered\.\n.*1\s+fetch.*2\s+ai\s+Rewrite.*3\s+publish/s);

  const refused = await run(ctx, ['pipelines', 'steps', 'remove', String(id), 'ai']);
  assert.is(refused.status, 1);
  assert.match(
    refused.stderr,
    /Remove step 2 \(ai "Rewrite"\) from pipeline \d+ "Steps" and its settings from 1 flow\(s\): not confirmed .*--yes/,
  );
  assert.equal(await storedTypes(ctx, id), ['fetch', 'ai', 'publish'], 'nothing removed without confirmation');
  const removed = await json<PipelineOut & { removed: StepRow }>(ctx, ['pipelines', 'steps', 'remove', String(id), 'ai', '--yes']);
  assert.equal([removed.removed.type, removed.removed.id], ['ai', added.added.id]);
  assert.equal(await storedTypes(ctx, id), ['fetch', 'publish']);
  const gone = await run(ctx, ['pipelines', 'steps', 'remove', '9999', '1', '--yes']);
  assert.is(gone.status, 1);
  assert.match(gone.stderr, /Pipeline 9999 does not exist \(pipeline_not_found\)/);
});

test("pipelines steps config stores an ai step's provider, model and system prompt", async (ctx) => {
  const id = (await json<PipelineOut>(ctx, ['pipelines', 'create', 'Configured', '--step', 'fetch', '--step', 'ai'])).pipeline_id;
  const promptFile = join(ctx.dataDir, 'prompt.txt');
  writeFileSync(promptFile, 'You write short headlines.\nNever more than ten words.\n');
  const saved = await json<{
    pipeline_id: number;
    position: number;
    step_type: string;
    provider: string;
    model: string;
    system_prompt: string;
  }>(ctx, [
    'pipelines',
    'steps',
    'config',
    String(id),
    'ai',
    '--provider',
    'openai',
    '--model',
    'gpt-4o-mini',
    '--system-prompt-file',
    promptFile,
  ]);
  assert.equal([saved.pipeline_id, saved.position, saved.step_type, saved.provider, saved.model], [id, 2, 'ai', 'openai', 'gpt-4o-mini']);
  const stored = (await storedPipeline(ctx, id)).pipeline_steps.find((s) => s.step_type === 'ai')!;
  assert.equal(
    [stored.provider, stored.model, stored.system_prompt],
    ['openai', 'gpt-4o-mini', 'You write short headlines.\nNever more than ten words.'],
  );

  const text = await run(ctx, ['pipelines', 'steps', 'config', String(id), '2', '--model', 'gpt-4o', '--label', 'Headline']);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, /step 2 \(ai\) configured\.\n\s+label: Headline\n\s+provider: openai\n\s+model: gpt-4o\n/);
  const again = (await storedPipeline(ctx, id)).pipeline_steps.find((s) => s.step_type === 'ai')!;
  assert.equal([again.provider, again.model, again.label], ['openai', 'gpt-4o', 'Headline'], 'what is not given stays');

  const unknown = await run(ctx, ['pipelines', 'steps', 'config', String(id), 'ai', '--provider', 'nope']);
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, /No AI provider 'nope' is registered \(provider_not_found\)/);
  const fetchStep = await run(ctx, ['pipelines', 'steps', 'config', String(id), 'fetch', '--model', 'gpt-4o']);
  assert.is(fetchStep.status, 1);
  assert.match(fetchStep.stderr, /step 1 \(fetch "Fetch Step"\): only ai steps take a provider, model or system prompt/);
  const nothing = await run(ctx, ['pipelines', 'steps', 'config', String(id), 'ai']);
  assert.is(nothing.status, 1);
  assert.match(nothing.stderr, /Nothing to change/);
  assert.is(
    (await storedPipeline(ctx, id)).pipeline_steps.find((s) => s.step_type === 'ai')!.provider,
    'openai',
    'refusals change nothing',
  );
});

test('pipelines delete removes the pipeline with its flows, after confirmation', async (ctx) => {
  const refused = await run(ctx, ['pipelines', 'delete', String(ctx.pipelineId)]);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, /--yes/);
  assert.is((await hostApi(ctx.dataDir, 'GET', `/pipelines/${ctx.pipelineId}`)).status, 200);

  const deleted = await json<{ pipeline_id: number; deleted_flows: number; flow_ids: number[] }>(ctx, [
    'pipelines',
    'delete',
    String(ctx.pipelineId),
    '--yes',
  ]);
  assert.is(deleted.pipeline_id, ctx.pipelineId);
  assert.is(deleted.deleted_flows, deleted.flow_ids.length);
  assert.ok(deleted.flow_ids.includes(ctx.flowId));
  assert.is((await hostApi(ctx.dataDir, 'GET', `/pipelines/${ctx.pipelineId}`)).status, 404);
  assert.is((await hostApi(ctx.dataDir, 'GET', `/flows/${ctx.flowId}`)).status, 404);
});

test('jobs cancel cancels a pending job (--json and text); an ended one is refused in words, a missing one named', async (ctx) => {
  const pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Cancels', '--step', 'fetch'])).pipeline_id;
  const flowId = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(pipelineId), '--name', 'Later'])).flow_id;
  const at = Math.floor(Date.now() / 1000) + 3600;
  const delayed = await hostApi(ctx.dataDir, 'POST', '/execute', { flow_id: flowId, timestamp: at });
  const jobId = (delayed.body as { data: { job_id: number } }).data.job_id;
  // A destructive command: without --yes and no terminal to ask on, refused and nothing cancelled.
  const unconfirmed = await run(ctx, ['jobs', 'cancel', String(jobId)]);
  assert.is(unconfirmed.status, 1);
  assert.match(unconfirmed.stderr, 'add --yes');
  const cancelled = await json<{ job_id: number; status: string; previous_status: string }>(ctx, [
    'jobs',
    'cancel',
    String(jobId),
    '--yes',
  ]);
  assert.equal(cancelled, { job_id: jobId, status: 'cancelled', previous_status: 'pending', flow_id: flowId });
  const again = await run(ctx, ['jobs', 'cancel', String(jobId), '--yes']);
  assert.is(again.status, 1);
  assert.match(again.stderr, new RegExp(`Job ${jobId} has already ended \\(cancelled\\)`));
  const other = await hostApi(ctx.dataDir, 'POST', '/execute', { flow_id: flowId, timestamp: at });
  const text = await run(ctx, ['jobs', 'cancel', String((other.body as { data: { job_id: number } }).data.job_id), '-y']);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, /^Job \d+ cancelled\.$/m);
  const missing = await run(ctx, ['jobs', 'cancel', '9999', '--yes']);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, 'Job 9999 does not exist');
});

test.run();
