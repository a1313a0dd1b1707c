// Issue 31, more API parity: the handlers of this build (`flowhost handlers`) and deleting
// jobs (`flowhost jobs clear`, destructive: confirmed or --yes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string };
const test = suite<Ctx>('cli: handlers list/show, jobs clear');

test.before(async (ctx) => {
  Object.assign(ctx, await startCliHost({}));
});
test.after(async (ctx) => {
  await ctx.host.stop();
});

test('handlers list names each handler with its step type; show gives its settings fields', async (ctx) => {
  const list = await json<Record<string, { type: string }>>(ctx, ['handlers', 'list']);
  assert.is(list.rss?.type, 'fetch');
  const table = await run(ctx, ['handlers', 'list']);
  assert.match(table.stdout, /rss\s+fetch/);
  const rss = await json<{ type: string; settings?: unknown }>(ctx, ['handlers', 'show', 'rss']);
  assert.is(rss.type, 'fetch');
  const missing = await run(ctx, ['handlers', 'show', 'nope']);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /nope/);
});

test('jobs clear --failed deletes failed jobs only after confirmation', async (ctx) => {
  const pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Jobs', '--step', 'fetch'])).pipeline_id;
  const flowId = (await json<{ flow_id: number }>(ctx, ['flows', 'create', String(pipelineId)])).flow_id;
  assert.is((await run(ctx, ['flows', 'run', String(flowId)])).status, 1, 'no handler: the job fails');
  const refused = await run(ctx, ['jobs', 'clear', '--failed']);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, /--yes/);
  assert.is(((await hostApi(ctx.dataDir, 'GET', `/jobs?flow_id=${flowId}`)).body.data as unknown[]).length, 1);

  const cleared = await json<{ deleted_count: number }>(ctx, ['jobs', 'clear', '--failed', '--flow', String(flowId), '--yes']);
  assert.is(cleared.deleted_count, 1);
  assert.equal((await hostApi(ctx.dataDir, 'GET', `/jobs?flow_id=${flowId}`)).body.data, []);
});

test.run();
