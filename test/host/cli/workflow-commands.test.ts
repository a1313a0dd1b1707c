// flowhost flows / jobs / logs: in process on every store through a host on the data
// directory, then, once the host is gone, one spawned command that opens the store itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { basicAuth, runCli as spawnCli } from '../../support/host-process.js';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';

for (const store of testStores('cli: flows, jobs and logs commands')) {
  const test = suite(`cli: flows, jobs and logs commands (${store.label})`);

  test('through a running host, then without one', async () => {
    const { host, dataDir } = await startCliHost(store.config());
    const cli = (...args: string[]) => runCli({ dataDir }, args);
    let flowId: number;
    try {
      const auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
      const api = (path: string, body: unknown) =>
        fetch(`${host.url}/api/automation/v1${path}`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ data: Record<string, unknown> }>);
      const pipeline = await api('/pipelines', { pipeline_name: 'CLI', steps: [{ step_type: 'fetch' }] });
      flowId = (await api('/flows', { pipeline_id: pipeline.data.pipeline_id, flow_name: 'From CLI' })).data.flow_id as number;

      const list = await cli('flows', 'list', '--json');
      assert.is(list.status, 0, list.stderr);
      assert.equal(
        (JSON.parse(list.stdout) as Array<{ flow_name: string }>).map((f) => f.flow_name),
        ['From CLI'],
      );
      const table = await cli('flows', 'list');
      assert.match(table.stdout, /From CLI\s+\d+\s+manual/);

      // The flow's fetch step has no handler yet: the run fails, and the CLI says so.
      const run = await cli('flows', 'run', String(flowId), '--json');
      assert.is(run.status, 1, run.stderr);
      const job = JSON.parse(run.stdout) as { job_id: number; status: string; error: string };
      assert.is(job.status, 'failed');
      assert.match(job.error, /no handler is configured/);

      const jobs = JSON.parse((await cli('jobs', 'list', '--flow', String(flowId), '--json')).stdout) as Array<{
        job_id: number;
        status: string;
      }>;
      assert.equal(
        jobs.map((j) => [j.job_id, j.status]),
        [[job.job_id, 'failed']],
      );
      const logs = await cli('logs', 'tail', '--level', 'error', '--json');
      assert.is(logs.status, 0, logs.stderr);
      const entries = logs.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { message: string; context: { job_id: number } });
      assert.ok(entries.some((e) => e.context.job_id === job.job_id && /failed/.test(e.message)));
      assert.is((await cli('flows', 'run', '999')).status, 1);
    } finally {
      await host.stop();
    }
    // Spawned, once (the embedded store: the MongoDB variant would only repeat it): with the
    // host gone, a real CLI process opens the data directory's store itself.
    if (store.label !== 'embedded') return;
    const offline = spawnCli(['jobs', 'list', '--json', '--data-dir', dataDir]);
    assert.is(offline.status, 0, offline.stderr);
    assert.is((JSON.parse(offline.stdout) as unknown[]).length, 1, 'without a host the CLI opens the store itself');
  });

  test.run();
}
