// Job ids run on across a restart (issue 31): the embedded store reserves ids in blocks,
// and a stop used to throw the rest of the block away, so the first job after every
// restart was numbered up to 100 higher (it looked like lost jobs). On both stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../../host/create-host.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { defineHandler } from '../../../sdk/index.js';
import { handlerPlugin } from '../../support/handler-plugin.js';
import { testStores } from '../../support/test-stores.js';

const noop = handlerPlugin('job-ids-noop', [
  defineHandler({
    slug: 'noop-pub',
    type: 'publish',
    label: 'Noop',
    description: 'Does nothing.',
    publish: async (_ctx, _s, packets) => packets,
  }),
]);
const workflow = { workflow: { steps: [{ type: 'publish', handler_slug: 'noop-pub' }] } };

/** Starts a host on `config`, makes `count` jobs through POST /execute, stops it; their ids. */
async function jobsOfOneStart(config: Partial<HostConfig> & { dataDir: string }, count: number): Promise<number[]> {
  const host = await createHost({
    plugins: [...defaultPlugins, noop],
    env: {},
    logger: silentLogger,
    config: { port: 0, logLevel: 'silent', ...config },
  });
  const url = await host.start();
  try {
    const password = host.initialAdmin?.password ?? readFileSync(join(config.dataDir, 'initial-admin-password'), 'utf8').trim();
    const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    const ids: number[] = [];
    for (let n = 0; n < count; n++) {
      const res = await fetch(`${url}/api/automation/v1/execute`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(workflow),
      });
      const body = (await res.json()) as { data: { job_id: number } };
      assert.is(res.status, 200, JSON.stringify(body));
      ids.push(body.data.job_id);
    }
    return ids;
  } finally {
    await host.stop();
  }
}

for (const store of testStores('job ids across restarts')) {
  const test = suite(`job ids across restarts (${store.label})`);

  test('the first job after a restart takes the next id, twice over', async () => {
    const config = { ...store.config(), dataDir: mkdtempSync(join(tmpdir(), 'flowhost-jobids-')) };
    const ids = [...(await jobsOfOneStart(config, 2)), ...(await jobsOfOneStart(config, 2)), ...(await jobsOfOneStart(config, 2))];
    assert.equal(
      ids,
      ids.map((_, n) => ids[0]! + n),
      `ids ${ids.join(', ')}`,
    );
  });

  test.run();
}
