// Issue 31, more API parity: the handlers of this build (`flowhost handlers`), deleting
// jobs (`flowhost jobs clear`), forgetting processed items (`flowhost processed-items
// clear`) and counting and clearing the log (`flowhost logs metadata|clear`); what
// deletes is confirmed or --yes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import { startFeedServer } from '../../support/feed-server.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string };
const test = suite<Ctx>('cli: handlers list/show, jobs clear, processed-items clear, logs metadata/clear');

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

test('processed-items clear forgets what a flow fetched, so the next run fetches it again', async (ctx) => {
  const feed = await startFeedServer([
    { guid: 'urn:a', title: 'A' },
    { guid: 'urn:b', title: 'B' },
  ]);
  try {
    const pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Processed', '--step', 'fetch'])).pipeline_id;
    const flowId = (
      await json<{ flow_id: number }>(ctx, [
        'flows',
        'create',
        String(pipelineId),
        '--handler',
        'fetch=rss',
        '--set',
        `fetch.feed_url=${feed.url}`,
        '--set',
        'fetch.max_items=5',
      ])
    ).flow_id;
    // A run's fetch step: how many new items it took (the job as the API stores it).
    const fetched = async () => {
      const job = await json<{ job_id: number }>(ctx, ['flows', 'run', String(flowId)]);
      const stored = (await hostApi(ctx.dataDir, 'GET', `/jobs/${job.job_id}`)).body.data as { steps: Array<{ items_out: number }> };
      return stored.steps[0]!.items_out;
    };
    assert.is(await fetched(), 2);
    assert.is(await fetched(), 0, 'both items are remembered as processed');

    const refused = await run(ctx, ['processed-items', 'clear', '--flow', String(flowId)]);
    assert.is(refused.status, 1);
    assert.match(refused.stderr, new RegExp(`Forget the processed items of flow ${flowId} "Flow" .*--yes`));
    assert.is(await fetched(), 0, 'nothing forgotten without confirmation');

    const cleared = await json<{ clear_type: string; target_id: number; deleted_count: number }>(ctx, [
      'processed-items',
      'clear',
      '--flow',
      String(flowId),
      '--yes',
    ]);
    assert.equal(cleared, { clear_type: 'flow', target_id: flowId, deleted_count: 2 });
    assert.is(await fetched(), 2, 'fetched again once forgotten');
    const text = await run(ctx, ['processed-items', 'clear', '--pipeline', String(pipelineId), '--yes']);
    assert.is(text.status, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`Cleared 2 processed items of pipeline ${pipelineId}\\.`));
    assert.is(await fetched(), 2);

    const missing = await run(ctx, ['processed-items', 'clear', '--flow', '9999', '--yes']);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /Flow 9999 does not exist \(flow_not_found\)/);
    const neither = await run(ctx, ['processed-items', 'clear', '--yes']);
    assert.is(neither.status, 1);
    assert.match(neither.stderr, /Give either --flow <id> or --pipeline <id>/);
  } finally {
    await feed.close();
  }
});

test('logs metadata counts the entries; logs clear deletes them (one agent or all) after confirmation', async (ctx) => {
  type Meta = { total_entries: number; oldest: string | null; newest: string | null };
  const stored = async () => (await hostApi(ctx.dataDir, 'GET', '/logs/metadata')).body.data as Meta;
  const before = await stored();
  assert.ok(before.total_entries > 0, 'the commands above were logged');
  const meta = await json<Meta>(ctx, ['logs', 'metadata']);
  assert.is(meta.total_entries, before.total_entries);
  assert.is(meta.oldest, before.oldest);
  assert.match(
    (await run(ctx, ['logs', 'metadata'])).stdout,
    new RegExp(`^${before.total_entries} log entries, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d to `),
  );

  const refused = await run(ctx, ['logs', 'clear']);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, new RegExp(`Delete ${before.total_entries} log entries \\(all agents\\): not confirmed .*--yes`));
  const agent = await json<{ agent_id: number; deleted_count: number }>(ctx, ['logs', 'clear', '--agent', '7', '--yes']);
  assert.equal(agent, { agent_id: 7, deleted_count: 0 });
  assert.is((await stored()).total_entries, before.total_entries, 'the entries of other agents stay');
  const bad = await run(ctx, ['logs', 'clear', '--agent=-1', '--yes']);
  assert.is(bad.status, 1);
  assert.match(bad.stderr, /agent_id must be >= 0 \(rest_invalid_param\)/);
  assert.is((await stored()).total_entries, before.total_entries);

  const cleared = await json<{ agent_id: null; deleted_count: number }>(ctx, ['logs', 'clear', '--yes']);
  assert.is(cleared.agent_id, null);
  assert.is(cleared.deleted_count, before.total_entries);
  assert.equal(await stored(), { total_entries: 0, oldest: null, newest: null });
  assert.match((await run(ctx, ['logs', 'metadata'])).stdout, /^0 log entries\n/);
});

test.run();
