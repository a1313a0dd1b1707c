// Periodic jobs across restarts: re-declaring `every('1 hour', …)` at each boot set the
// job's next run one hour after that boot, so a host restarted more often than hourly never
// ran its hourly jobs (the logs purge, the webhook purge). A schedule stored as declared is
// now left alone; a changed one is saved again. On both stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../../host/create-host.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { JOBS_COLLECTION } from '../../../host/scheduler/job-document.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { definePlugin, services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

const sweeper = (interval: string, data: Record<string, unknown> = {}) =>
  definePlugin({
    id: 'sweeper',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { scheduler: services.scheduler },
    async setup({ scheduler }) {
      scheduler.define('sweep', () => undefined);
      await scheduler.every(interval, 'sweep', data);
    },
  });

type StoredSweep = {
  nextRunAt: Date;
  repeatInterval: string;
  data: Record<string, unknown>;
};

/** Boots a host with the sweeper on `config`, starts and stops it; the stored sweep job(s). */
async function bootOnce(config: Partial<HostConfig>, plugin: ReturnType<typeof sweeper>): Promise<StoredSweep[]> {
  const host = await createHost({
    plugins: [plugin],
    coreApi: false,
    env: {},
    logger: silentLogger,
    config: { port: 0, logLevel: 'silent', ...config },
  });
  await host.start();
  try {
    const docs = await host.store.collection<StoredSweep & { _id: string }>(JOBS_COLLECTION).find({ name: 'sweeper:sweep' });
    return docs.map(({ nextRunAt, repeatInterval, data }) => ({ nextRunAt: new Date(nextRunAt), repeatInterval, data }));
  } finally {
    await host.stop();
  }
}

for (const store of testStores('periodic jobs across restarts')) {
  const test = suite(`periodic jobs across restarts (${store.label})`);

  test('a restart keeps the next run of an unchanged schedule; a changed one is saved again', async () => {
    const config = { ...store.config(), dataDir: mkdtempSync(join(tmpdir(), 'flowhost-periodic-')) };
    const before = Date.now();
    const [first] = await bootOnce(config, sweeper('1 hour'));
    assert.ok(first, 'the first boot stores the job');
    assert.ok(
      first.nextRunAt.getTime() >= before + 3_600_000,
      `first run one interval after the first boot: ${first.nextRunAt.toISOString()}`,
    );

    const again = await bootOnce(config, sweeper('1 hour'));
    assert.equal(again, [first], 'the restart left the schedule as it was');

    const beforeChange = Date.now();
    const changed = await bootOnce(config, sweeper('2 hours', { scope: 'all' }));
    assert.is(changed.length, 1, 'still one document for the job');
    assert.is(changed[0]!.repeatInterval, '2 hours');
    assert.equal(changed[0]!.data, { scope: 'all' });
    assert.ok(
      changed[0]!.nextRunAt.getTime() >= beforeChange + 7_200_000,
      `the new interval counts from now: ${changed[0]!.nextRunAt.toISOString()}`,
    );
  });

  test.run();
}
