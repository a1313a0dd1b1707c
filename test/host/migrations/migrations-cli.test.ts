// `flowhost plugins migrations` and GET /plugins/migrations (issue 54) on both stores: the
// running host's plugins with migrations, each step applied or pending, a recorded failure
// and a lock holder, as a table and as --json.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin } from '../../../sdk/index.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';

const tagged = definePlugin({
  id: 'migrate-cli-probe',
  version: '1.0.0',
  flowhost: '^1.0.0',
  migrations: [
    { id: '2024-01-a', description: 'first', up: async ({ store }) => void (await store.collection('marks').insertOne({ n: 1 })) },
    { id: '2024-02-b', up: () => undefined },
  ],
  setup: () => undefined,
});

type Status = {
  plugin: string;
  applied: Array<{ id: string; description: string | null }>;
  pending: Array<{ id: string; description: string | null }>;
  last: string | null;
  failed: { step: string; message: string } | null;
  locked_by: string | null;
};

for (const store of testStores('cli: plugins migrations')) {
  const test = suite(`cli: flowhost plugins migrations (${store.label})`);

  test('lists applied and pending steps, a failure and a lock holder, as a table and as --json', async () => {
    const { host, dataDir } = await startCliHost(store.config(), [tagged]);
    try {
      const run = (args: string[]) => cliInProcess(['plugins', 'migrations', ...args, '--data-dir', dataDir]);
      const json = await run(['--json']);
      assert.is(json.status, 0, json.stderr);
      const statuses = JSON.parse(json.stdout) as Status[];
      assert.equal(
        statuses.map((s) => s.plugin),
        ['migrate-cli-probe'],
        'only plugins with migrations',
      );
      assert.equal(statuses[0]!.applied, [
        { id: '2024-01-a', description: 'first' },
        { id: '2024-02-b', description: null },
      ]);
      assert.equal(statuses[0]!.pending, []);
      assert.is(statuses[0]!.last, '2024-02-b');
      assert.match((await run([])).stdout, /^migrate-cli-probe\s+2\s+2024-02-b\s+-\s+ok$/m);

      // As another host with a newer build would leave it: b not applied here, a failure, a lock.
      await host.store.collection('plugin_migrations').updateOne(
        { _id: 'migrate-cli-probe' },
        {
          $set: {
            applied: ['2024-01-a'],
            failed: { step: '2024-02-b', message: 'no room', at: new Date() },
            lock: { owner: 'other-host-7', since: new Date(), expires_at: new Date(Date.now() + 60_000), step: '2024-02-b' },
          },
        },
      );
      const after = JSON.parse((await run(['--json'])).stdout) as Status[];
      assert.equal(after[0]!.pending, [{ id: '2024-02-b', description: null }]);
      assert.equal(after[0]!.failed?.step, '2024-02-b');
      assert.is(after[0]!.locked_by, 'other-host-7');
      assert.match((await run([])).stdout, /^migrate-cli-probe\s+1\s+2024-02-b\s+2024-02-b\s+failed at '2024-02-b': no room$/m);
    } finally {
      await host.stop();
    }
  });

  test.run();
}
