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
