// Issue 8: kill the host (SIGKILL) while a flow is scheduled, let slots pass, restart:
// the missed run happens once, not once per missed slot.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, startHostProcess, waitForExit } from '../support/host-process.js';
import { openEmbeddedStore } from '../../host/store/embedded/index.js';

const test = suite('e2e: kill -9 mid-schedule');

test('after a SIGKILL and three missed hourly slots, one catch-up run', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-kill-'));
  const env = { FLOWHOST_ALLOW_PRIVATE_URLS: '1' };
  const first = await startHostProcess(dataDir, env);
  const auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
  const api = async (url: string, method: string, path: string, body?: unknown) =>
    (await (
      await fetch(`${url}/api/automation/v1${path}`, {
        method,
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json()) as {
      data: Record<string, unknown> & Array<Record<string, unknown>>;
      total: number;
    };
  // A flow whose fetch step reads the site's own posts (cms-local): nothing external needed.
  const pipelineId = (await api(first.url, 'POST', '/pipelines', { pipeline_name: 'Hourly', steps: [{ step_type: 'fetch' }] })).data
    .pipeline_id as number;
  const stepId = (
    (await api(first.url, 'GET', `/pipelines/${pipelineId}`)).data.pipeline as { pipeline_steps: Array<{ pipeline_step_id: string }> }
  ).pipeline_steps[0]!.pipeline_step_id;
  const flowId = (
    await api(first.url, 'POST', '/flows', {
      pipeline_id: pipelineId,
      flow_config: { [stepId]: { handler_slug: 'cms-local' } },
      scheduling_config: { interval: 'hourly' },
    })
  ).data.flow_id as number;
  first.proc.kill('SIGKILL');
  await waitForExit(first.proc);

  const store = openEmbeddedStore({ file: join(dataDir, 'flowhost.db'), exclusive: true });
  const moved = await store
    .collection('agenda_jobs')
    .updateOne({ 'data.flowId': flowId }, { $set: { nextRunAt: new Date(Date.now() - 3 * 3600_000) } });
  assert.is(moved.matchedCount, 1, 'the schedule survived the kill');
  await store.close();

  const second = await startHostProcess(dataDir, { ...env, FLOWHOST_LOG_LEVEL: 'warn' });
  try {
    let total = 0;
    for (let i = 0; i < 200 && total === 0; i++) {
      total = (await api(second.url, 'GET', `/jobs?flow_id=${flowId}`)).total;
      if (total === 0) await new Promise((r) => setTimeout(r, 50));
    }
    // Once the schedule has moved an hour out, no second catch-up can come: the overdue date is gone.
    let nextRun = 0;
    for (let i = 0; i < 200 && nextRun <= Date.now() + 30 * 60_000; i++) {
      nextRun = new Date(String((await api(second.url, 'GET', `/flows/${flowId}`)).data.next_run)).getTime();
      if (nextRun <= Date.now() + 30 * 60_000) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(nextRun > Date.now() + 30 * 60_000, 'next run an hour out');
    const jobs = await api(second.url, 'GET', `/jobs?flow_id=${flowId}`);
    assert.is(jobs.total, 1, 'one catch-up run');
  } finally {
    second.proc.kill('SIGTERM');
    await waitForExit(second.proc);
  }
});

test.run();
