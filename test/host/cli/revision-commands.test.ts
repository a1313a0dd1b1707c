// flowhost flows|pipelines revisions, diff, restore (issue 55), in process through a host on
// the data directory, on every store: the CLI's changes are recorded with client `cli`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Host } from '../../../host/host.js';
import { cliJson, runCli, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('cli: revision commands')) {
  const test = suite<{ host: Host; dataDir: string }>(`cli: revision commands (${store.label})`);
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config()));
  });
  test.after(async ({ host }) => host.stop());

  test('revisions, diff and restore of a flow and a pipeline, each with --json', async (place) => {
    const pipeline = await cliJson<Body>(place, ['pipelines', 'create', 'Revised', '--step', 'fetch']);
    const pipelineId = pipeline.pipeline_id as number;
    const flow = await cliJson<Body>(place, ['flows', 'create', String(pipelineId), '--name', 'First']);
    const flowId = flow.flow_id as number;
    await cliJson(place, ['flows', 'config', String(flowId), '--name', 'Second']);

    const listed = await cliJson<Body>(place, ['flows', 'revisions', String(flowId)]);
    assert.is(listed.total, 2);
    assert.equal(
      listed.revisions.map((r: Body) => [r.revision, r.action, r.client]),
      [
        [2, 'update', 'cli'],
        [1, 'create', 'cli'],
      ],
    );
    const table = await runCli(place, ['flows', 'revisions', String(flowId)]);
    assert.is(table.status, 0, table.stderr);
    assert.match(table.stdout, /2 revision\(s\)/);
    assert.match(table.stdout, /flow\.update/);

    const diff = await cliJson<Body>(place, ['flows', 'diff', String(flowId), '1', '2']);
    assert.equal(diff.changes, [{ op: 'replace', path: '/flow_name', before: 'First', after: 'Second' }]);
    const text = await runCli(place, ['flows', 'diff', String(flowId), '1', '2']);
    assert.is(text.stdout.trim(), '/flow_name: "First" → "Second"');

    const restored = await cliJson<Body>(place, ['flows', 'restore', String(flowId), '1']);
    assert.equal(restored, { flow_id: flowId, revision: 3, restored_from: 1 });
    const shown = await cliJson<Body>(place, ['flows', 'show', String(flowId)]);
    assert.is(shown.flow_name, 'First');

    const missing = await runCli(place, ['flows', 'restore', String(flowId), '99']);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /no revision 99/);
    assert.is((await runCli(place, ['flows', 'diff', String(flowId), 'x', '2'])).status, 1);

    // A step's change names the step by position, type and id; a secret's says only that it changed.
    const stepId = (await cliJson<Body>(place, ['pipelines', 'show', String(pipelineId)])).pipeline_steps[0].pipeline_step_id as string;
    await cliJson(place, [
      'flows',
      'config',
      String(flowId),
      '--handler',
      'fetch=rss',
      '--set',
      'fetch.feed_url=https://news.example/feed?token=one-1',
    ]);
    await cliJson(place, ['flows', 'config', String(flowId), '--set', 'fetch.feed_url=https://news.example/feed?token=two-2']);
    const latest = (await cliJson<Body>(place, ['flows', 'revisions', String(flowId)])).revisions[0].revision as number;
    const stepText = await runCli(place, ['flows', 'diff', String(flowId), String(latest - 1), String(latest)]);
    assert.is(stepText.status, 0, stepText.stderr);
    assert.is(stepText.stdout.trim(), `step 1 fetch (${stepId}) /handler_config/feed_url: secret changed (value not shown)`);
    assert.not.match(stepText.stdout, /one-1|two-2/);

    await cliJson(place, ['pipelines', 'rename', String(pipelineId), 'Renamed']);
    const pipelineRevs = await cliJson<Body>(place, ['pipelines', 'revisions', String(pipelineId)]);
    assert.equal(
      pipelineRevs.revisions.map((r: Body) => [r.revision, r.change]),
      [
        [2, 'pipeline.update'],
        [1, 'pipeline.create'],
      ],
    );
    const pdiff = await cliJson<Body>(place, ['pipelines', 'diff', String(pipelineId), '1', '2']);
    assert.equal(
      pdiff.changes.map((c: Body) => [c.path, c.before, c.after]),
      [['/pipeline_name', 'Revised', 'Renamed']],
    );
    const prestored = await cliJson<Body>(place, ['pipelines', 'restore', String(pipelineId), '1']);
    assert.equal(prestored, { pipeline_id: pipelineId, revision: 3, restored_from: 1 });
  });

  test.run();
}
