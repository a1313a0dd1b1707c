// Plugins installed at run time (issue 54, "Install, upgrade, remove"): `flowhost plugins
// install` of a packed plugin into the data directory's plugins folder, run by the next host;
// disabled (not loaded, its flows orphaned) and enabled again; updated to a version whose
// migration changes its data at the next start; an incompatible package refused with the
// folder and record left byte for byte; on MongoDB a host lacking it refuses to start.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliInProcess } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';
import { helloTarballs } from '../../support/plugin-tarballs.js';
import { type Body, callHost, startStockHost } from '../../support/install-host.js';

const tarballs = helloTarballs();
const sdkFile = fileURLToPath(new URL('../../../sdk/index.js', import.meta.url));
const startHost = startStockHost;
const call = (dataDir: string, method: string, path: string, body?: unknown) => callHost(dataDir, method, path, body);

const folderFiles = (dataDir: string) =>
  ['package.json', 'package-lock.json', 'installed.json'].map((name) => readFileSync(join(dataDir, 'plugins', name), 'utf8'));

type Cli = (args: string[]) => ReturnType<typeof cliInProcess>;

/** Refused before anything is recorded: the folder's files byte for byte, no package left. */
async function refusedLeavesFolder(cli: Cli, dataDir: string): Promise<void> {
  const before = folderFiles(dataDir);
  for (const [tarball, words] of [
    [tarballs.future, /needs flowhost \^2\.0\.0 \(peerDependencies\), but this is Flowhost 1\.0\.0/],
    [tarballs.needy, /depends on plugin 'hello' \^2, but version 1\.0\.0 is loaded/],
  ] as const) {
    const refused = await cli(['plugins', 'install', tarball]);
    assert.is(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, words);
    assert.match(refused.stderr, /\(plugin_incompatible\)/);
    assert.equal(folderFiles(dataDir), before, 'package.json, lockfile and record unchanged');
  }
  assert.not.ok(existsSync(join(dataDir, 'plugins/node_modules/flowhost-plugin-future')));
  assert.not.ok(existsSync(join(dataDir, 'plugins/node_modules/flowhost-plugin-needy')));
}

/** On MongoDB: another host of the database, its own data directory without the plugin, refuses to start. */
async function elsewhereRefuses(storeConfig: ReturnType<ReturnType<typeof testStores>[number]['config']>): Promise<void> {
  // Another host of the database, its own data directory without the plugin.
  const elsewhere = mkdtempSync(join(tmpdir(), 'flowhost-install-elsewhere-'));
  const refused = await startHost({ ...storeConfig, dataDir: elsewhere }).then(
    async (h) => {
      await h.stop();
      return null;
    },
    (error: Error) => error,
  );
  assert.ok(refused, 'a host without the plugin refuses to start');
  assert.match(
    refused!.message,
    /plugin 'hello' 1\.1\.0 is installed for this database but not on this host: run flowhost plugins install /,
  );
}

for (const store of testStores('plugins install')) {
  const test = suite(`plugins install: from a tarball to removal (${store.label})`);

  test('installed, run after a restart, refused when incompatible, disabled, enabled, updated with its migration, removed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-install-'));
    const storeConfig = store.config();
    const env: Record<string, string> = storeConfig.mongodbUrl ? { MONGODB_URL: storeConfig.mongodbUrl } : {};
    const cli = (args: string[]) => cliInProcess([...args, '--data-dir', dataDir], { env });
    const config = { dataDir, ...storeConfig };

    const installed = await cli(['plugins', 'install', tarballs.v1, '--json']);
    assert.is(installed.status, 0, installed.stderr);
    assert.is(JSON.parse(installed.stdout).data.id, 'hello');
    assert.is(JSON.parse(installed.stdout).data.version, '1.0.0');
    assert.match(installed.stderr, /npm: /, 'npm progress on stderr');
    // The plugin's `import 'flowhost'` is this host's SDK file, not a copy.
    const entry = createRequire(join(dataDir, 'plugins', 'package.json')).resolve('flowhost-plugin-hello');
    assert.is(realpathSync(createRequire(entry).resolve('flowhost')), realpathSync(sdkFile));

    let flowId = 0;
    let host = await startHost(config);
    try {
      // A command while the host runs changes the folder; the host says whether it now needs a restart.
      const off = await cli(['plugins', 'disable', 'hello']);
      assert.is(off.status, 0, off.stderr);
      assert.match(off.stdout, /Disabled hello\. The running host loads the change when it restarts\./);
      const back = await cli(['plugins', 'enable', 'hello', '--json']);
      assert.is(JSON.parse(back.stdout).restart_needed, false, 'back to what the host runs');
      assert.ok(
        host.plugins.some((p) => p.id === 'hello' && p.version === '1.0.0'),
        'the host runs the installed plugin',
      );
      const greeted = await call(dataDir, 'POST', '/hello/v1/greeting', { name: 'Ada' });
      assert.is(greeted.status, 201, JSON.stringify(greeted));
      assert.is(greeted.data.message, 'Hello, Ada!');
      const pipelineId = (await call(dataDir, 'POST', '/automation/v1/pipelines', { pipeline_name: 'Hi', steps: [{ step_type: 'fetch' }] }))
        .data.pipeline_id;
      const stepId = (await call(dataDir, 'GET', `/automation/v1/pipelines/${pipelineId}`)).data.pipeline.pipeline_steps[0]
        .pipeline_step_id;
      const flow = await call(dataDir, 'POST', '/automation/v1/flows', {
        pipeline_id: pipelineId,
        flow_name: 'Hi',
        flow_config: { [stepId]: { handler_slug: 'hello' } },
      });
      assert.is(flow.status, 200, JSON.stringify(flow));
      flowId = flow.data.flow_id;
    } finally {
      await host.stop();
    }

    await refusedLeavesFolder(cli, dataDir);

    const disabled = await cli(['plugins', 'disable', 'hello', '--json']);
    assert.is(disabled.status, 0, disabled.stderr);
    host = await startHost(config);
    try {
      assert.not.ok(
        host.plugins.some((p) => p.id === 'hello'),
        'a disabled plugin is not loaded',
      );
      const problems = await call(dataDir, 'GET', '/automation/v1/flows/problems');
      const orphan = problems.data.problem_flows.find((p: Body) => p.flow_id === flowId);
      assert.ok(orphan, JSON.stringify(problems.data));
      assert.match(orphan.orphaned[0].reason, "names handler 'hello', which no loaded plugin provides");
    } finally {
      await host.stop();
    }

    assert.is((await cli(['plugins', 'enable', 'hello'])).status, 0);
    const updated = await cli(['plugins', 'update', 'hello', tarballs.v2, '--json']);
    assert.is(updated.status, 0, updated.stderr);
    assert.is(JSON.parse(updated.stdout).data.version, '1.1.0');
    assert.is(JSON.parse(updated.stdout).data.enabled, true);
    host = await startHost(config);
    try {
      assert.ok(host.plugins.some((p) => p.id === 'hello' && p.version === '1.1.0'));
      // The new version's migration ran at this start, on the data the first one stored.
      const list = await call(dataDir, 'GET', '/hello/v1/greetings');
      assert.equal(
        list.data.map((g: Body) => g.message),
        ['HELLO, ADA!'],
      );
    } finally {
      await host.stop();
    }

    if (storeConfig.mongodbUrl) await elsewhereRefuses(storeConfig);

    // Settings saved at run time, to be purged with the rest.
    host = await startHost(config);
    try {
      const saved = await call(dataDir, 'PATCH', '/automation/v1/plugins/hello/settings', { greeting: 'Hi' });
      assert.is(saved.status, 200, JSON.stringify(saved));
    } finally {
      await host.stop();
    }
    const unasked = await cli(['plugins', 'remove', 'hello', '--purge']);
    assert.is(unasked.status, 1, 'no terminal to ask on, no --yes: refused');
    assert.match(unasked.stderr, /collection hello__greetings \(1 document\)/);
    assert.match(unasked.stderr, /job hello:forget-old/);
    assert.match(unasked.stderr, /its saved settings/);
    assert.match(unasked.stderr, /its migration record/);
    assert.ok(existsSync(join(dataDir, 'plugins/node_modules/flowhost-plugin-hello')), 'nothing removed unasked');

    const removed = await cli(['plugins', 'remove', 'hello', '--purge', '--yes', '--json']);
    assert.is(removed.status, 0, removed.stderr);
    const answer = JSON.parse(removed.stdout);
    assert.equal(answer.purged.collections, [{ name: 'hello__greetings', documents: 1 }]);
    assert.equal(JSON.parse(readFileSync(join(dataDir, 'plugins/installed.json'), 'utf8')).plugins, []);
    assert.not.ok(existsSync(join(dataDir, 'plugins/node_modules/flowhost-plugin-hello')));
    host = await startHost(config);
    try {
      assert.not.ok(host.plugins.some((p) => p.id === 'hello'));
      // Nothing of it is left in the store.
      const names = (await host.store.collectionNames?.()) ?? [];
      assert.ok(names.includes('agenda_jobs') && names.length > 5, names.join(', '));
      assert.equal(
        names.filter((n) => n.startsWith('hello__')),
        [],
      );
      assert.equal(await host.store.collection('agenda_jobs').count({ name: { $regex: '^hello:' } }), 0);
      assert.is(await host.store.collection('plugin_settings').findOne({ _id: 'hello' }), null);
      assert.is(await host.store.collection('plugin_migrations').findOne({ _id: 'hello' }), null);
    } finally {
      await host.stop();
    }
  });

  test.run();
}
