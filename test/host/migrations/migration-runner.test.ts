// The migration runner's lease (issue 54) on both stores, with two runners on one store as
// two hosts would be: a lease shorter than a step is renewed while the step runs, so the
// other host waits rather than taking the step over; a host whose lock was taken over
// during a step does not record it and stops, saying so.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { silentLogger } from '../../../core/kernel/logger.js';
import { systemClock } from '../../../core/kernel/clock.js';
import type { DocumentStore } from '../../../core/store/port.js';
import type { PluginMigration, PluginStore } from '../../../sdk/index.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { openMongoStore } from '../../../host/store/mongodb/index.js';
import { migrationRunner } from '../../../host/migrations/run-migrations.js';
import { testStores } from '../../support/test-stores.js';

const PLUGIN = 'lease-probe';

function runnerOn(store: DocumentStore, owner: string, leaseMs: number) {
  const pluginStore: PluginStore = {
    kind: store.kind,
    collection: (name) => store.collection(`lease-probe__${name}`),
    nextId: (sequence, count) => store.nextId(`lease-probe__${sequence}`, count),
  };
  return migrationRunner({
    store,
    clock: systemClock,
    owner,
    leaseMs,
    pollMs: 20,
    storeOf: async () => pluginStore,
    logOf: async () => silentLogger,
  });
}

for (const kind of testStores('host: migration lease')) {
  const test = suite<{ store: DocumentStore }>(`host: migration lease (${kind.label})`);
  test.before.each(async (ctx) => {
    const url = kind.config().mongodbUrl;
    ctx.store = url ? await openMongoStore({ url }) : await openEmbeddedStore({ file: ':memory:' });
  });
  test.after.each(async (ctx) => ctx.store.close());

  test('a step longer than the lease keeps its lock: the other host waits, then runs nothing', async ({ store }) => {
    const runs: string[] = [];
    const slow: PluginMigration[] = [
      {
        id: 'slow',
        async up({ store: own }) {
          runs.push('slow');
          await own.collection('marks').insertOne({ step: 'slow' });
          await new Promise((done) => setTimeout(done, 700)); // more than four leases
        },
      },
    ];
    const first = runnerOn(store, 'host-a', 150)(PLUGIN, slow);
    // The second starts once the first holds the lock.
    const deadline = Date.now() + 5000;
    while (!(await store.collection('plugin_migrations').findOne({ _id: PLUGIN, 'lock.owner': 'host-a' }))) {
      assert.ok(Date.now() < deadline, 'host-a took the lock');
      await new Promise((done) => setTimeout(done, 10));
    }
    const second = runnerOn(store, 'host-b', 150)(PLUGIN, slow);
    const [ranA, ranB] = await Promise.all([first, second]);
    assert.equal(ranA, ['slow']);
    assert.equal(ranB, [], 'host-b found the step applied');
    assert.equal(runs, ['slow']);
    assert.is(await store.collection('lease-probe__marks').count(), 1);
  });

  test('a host whose lock was taken over during a step does not record it and stops, saying so', async ({ store }) => {
    const steps: PluginMigration[] = [
      {
        id: 'taken',
        async up() {
          // Another host took the lock over (as after a stall longer than the lease).
          await store
            .collection('plugin_migrations')
            .updateOne({ _id: PLUGIN }, { $set: { 'lock.owner': 'host-c', 'lock.expires_at': new Date(Date.now() + 60_000) } });
        },
      },
      { id: 'after', up: () => assert.unreachable('no later step runs') },
    ];
    let refused: Error | null = null;
    await runnerOn(
      store,
      'host-a',
      60_000,
    )(PLUGIN, steps).catch((error: Error) => {
      refused = error;
    });
    assert.ok(refused, 'the runner stopped');
    assert.match(String(refused), "Plugin 'lease-probe': lost the migration lock during migration 'taken'");
    const record = await store.collection('plugin_migrations').findOne({ _id: PLUGIN });
    assert.equal(record?.applied, [], 'not recorded');
    assert.is((record?.lock as { owner: string } | undefined)?.owner, 'host-c', "the other host's lock is left alone");
  });

  test.run();
}
