import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, runCli, startHostProcess, waitForExit } from '../../support/host-process.js';

const test = suite('cli: flows, jobs and logs commands');

test('through a running host, then in-process once it is gone', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-wf-'));
  const host = await startHostProcess(dataDir);
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

    const list = runCli(['flows', 'list', '--json', '--data-dir', dataDir]);
    assert.is(list.status, 0, list.stderr);
    assert.equal(
      (JSON.parse(list.stdout) as Array<{ flow_name: string }>).map((f) => f.flow_name),
      ['From CLI'],
    );
    const table = runCli(['flows', 'list', '--data-dir', dataDir]);
    assert.match(table.stdout, /From CLI\s+\d+\s+manual/);

    // The flow's fetch step has no handler yet: the run fails, and the CLI says so.
    const run = runCli(['flows', 'run', String(flowId), '--json', '--data-dir', dataDir]);
    assert.is(run.status, 1, run.stderr);
    const job = JSON.parse(run.stdout) as { job_id: number; status: string; error: string };
    assert.is(job.status, 'failed');
    assert.match(job.error, /no handler is configured/);

    const jobs = JSON.parse(runCli(['jobs', 'list', '--flow', String(flowId), '--json', '--data-dir', dataDir]).stdout) as Array<{
      job_id: number;
      status: string;
    }>;
    assert.equal(
      jobs.map((j) => [j.job_id, j.status]),
      [[job.job_id, 'failed']],
    );
    const logs = runCli(['logs', 'tail', '--level', 'error', '--json', '--data-dir', dataDir]);
    assert.is(logs.status, 0, logs.stderr);
    const entries = logs.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { message: string; context: { job_id: number } });
    assert.ok(entries.some((e) => e.context.job_id === job.job_id && /failed/.test(e.message)));
    assert.is(runCli(['flows', 'run', '999', '--data-dir', dataDir]).status, 1);
  } finally {
    host.proc.kill('SIGTERM');
    await waitForExit(host.proc);
  }
  const offline = runCli(['jobs', 'list', '--json', '--data-dir', dataDir]);
  assert.is(offline.status, 0, offline.stderr);
  assert.is((JSON.parse(offline.stdout) as unknown[]).length, 1, 'without a host the CLI opens the store itself');
});

test.run();
