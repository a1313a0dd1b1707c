// Issue 55: a waiting job is state in the store, not a timer in a process. A host stops
// while a run waits for review; a new host on the same store shows the job waiting, takes
// the approval, and the run completes there. On both stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '../../../host/create-host.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { testStores } from '../../support/test-stores.js';
import { approvalFlow, approvalProbe, jobIn, newApprovalRemote } from '../../support/approval-probe.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** A host on `config` and a client for it (the admin's password from the data directory after the first start). */
async function startOn(config: Partial<HostConfig> & { dataDir: string }, remote: ReturnType<typeof newApprovalRemote>) {
  const host: Host = await createHost({
    plugins: [...defaultPlugins, approvalProbe(remote)],
    env: {},
    logger: silentLogger,
    config: { port: 0, host: '127.0.0.1', logLevel: 'silent', allowPrivateUrls: true, ...config },
  });
  const url = await host.start();
  const password = host.initialAdmin?.password ?? readFileSync(join(config.dataDir, 'initial-admin-password'), 'utf8').trim();
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const request = async <T = Body>(method: string, path: string, options: { body?: unknown } = {}) => {
    const res = await fetch(`${url}/api/automation/v1${path}`, {
      method,
      headers: { Authorization: auth, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as T };
  };
  return { host, request };
}

for (const store of testStores('engine: approval across a restart')) {
  const test = suite(`engine: a waiting run survives its host (${store.label})`);

  test('stop the host while waiting; a new host on the same store takes the approval and the run completes', async () => {
    const config = { ...store.config(), dataDir: mkdtempSync(join(tmpdir(), 'flowhost-approval-')) };
    const first = newApprovalRemote();
    const a = await startOn(config, first);
    let jobId: number;
    try {
      const flowId = await approvalFlow(a);
      const ran = await a.request('POST', '/execute', { body: { flow_id: flowId } });
      assert.is(ran.status, 200, JSON.stringify(ran.body));
      jobId = ran.body.data.job_id as number;
      assert.is((await jobIn(a, jobId, ['waiting'])).review.pending, 3);
    } finally {
      await a.host.stop();
    }
    const second = newApprovalRemote();
    const b = await startOn(config, second);
    try {
      const waiting = await b.request('GET', '/jobs?status=waiting');
      assert.equal(
        waiting.body.data.map((j: Body) => j.job_id),
        [jobId],
        'still waiting after the restart',
      );
      assert.is((await b.request('POST', `/jobs/${jobId}/reject`, { body: { items: ['urn:appr:2'] } })).status, 200);
      const approved = await b.request('POST', `/jobs/${jobId}/approve`, { body: {} });
      assert.is(approved.status, 200, JSON.stringify(approved.body));
      const done = await jobIn(b, jobId, ['completed', 'failed']);
      assert.is(done.status, 'completed', JSON.stringify(done));
      assert.equal(first.posted, [], 'the first host published nothing');
      assert.equal(second.posted, ['urn:appr:1', 'urn:appr:3'], 'the new host published the approved items');
    } finally {
      await b.host.stop();
    }
  });

  test.run();
}
