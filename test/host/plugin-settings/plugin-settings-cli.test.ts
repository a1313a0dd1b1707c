// `flowhost plugins settings <id>` (issue 54) on both stores: shows a plugin's settings, sets
// plain ones with --set, a writeOnly one from standard input with --set-secret (refused on
// argv), clears with --clear; the secret never appears in what the command prints.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, services } from '../../../sdk/index.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';

const SECRET = 'cli-secret-93b1f0e2d7c4';
let heard: Record<string, unknown> | undefined;

const probe = definePlugin({
  id: 'settings-cli-probe',
  version: '1.0.0',
  flowhost: '^1.0.0',
  settingsSchema: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
      api_key: { type: 'string', writeOnly: true },
    },
    additionalProperties: false,
  },
  deps: { config: services.config },
  setup: () => undefined,
  onSettingsChanged(next) {
    heard = { ...next };
  },
});

for (const store of testStores('cli: plugins settings')) {
  const test = suite(`cli: flowhost plugins settings (${store.label})`);

  test('shows, sets, takes a secret from stdin only, clears; never prints the secret', async () => {
    const { host, dataDir } = await startCliHost(store.config(), [probe]);
    try {
      const run = (args: string[], stdin?: string) =>
        cliInProcess(['plugins', 'settings', 'settings-cli-probe', ...args, '--data-dir', dataDir], { stdin });
      const listed = await cliInProcess(['plugins', 'settings', '--json', '--data-dir', dataDir]);
      assert.is(listed.status, 0, listed.stderr);
      assert.ok((JSON.parse(listed.stdout) as Array<{ plugin: string }>).some((p) => p.plugin === 'settings-cli-probe'));
      const shown = await run(['--json']);
      assert.is(shown.status, 0, shown.stderr);
      assert.equal(JSON.parse(shown.stdout).values, { limit: 3 });

      const onArgv = await run(['--set', `api_key=${SECRET}`]);
      assert.is.not(onArgv.status, 0);
      assert.match(onArgv.stderr, '--set-secret api_key');
      assert.not.ok(onArgv.stderr.includes(SECRET));

      const set = await run(['--set', 'limit=5', '--set-secret', 'api_key', '--json'], `${SECRET}\n`);
      assert.is(set.status, 0, set.stderr);
      const data = JSON.parse(set.stdout);
      assert.equal(data.values, { limit: 5 });
      assert.equal(data.secrets, { api_key: { set: true } });
      assert.is(data.restart_required, false);
      assert.equal(heard, { limit: 5, api_key: SECRET }, 'applied live, without its trailing line end');

      const table = await run([]);
      assert.match(table.stdout, /^api_key\s+\(set, hidden\)\s+stored$/m);
      assert.match(table.stdout, /^limit\s+5\s+stored$/m);

      const bad = await run(['--set', 'limit=50']);
      assert.is.not(bad.status, 0);
      assert.match(bad.stderr, 'limit must be <= 10');

      const cleared = await run(['--clear', 'api_key', '--json']);
      assert.is(cleared.status, 0, cleared.stderr);
      assert.equal(JSON.parse(cleared.stdout).secrets, { api_key: { set: false } });
      for (const out of [shown, set, table, bad, cleared]) assert.not.ok((out.stdout + out.stderr).includes(SECRET));
    } finally {
      await host.stop();
    }
  });

  test.run();
}
