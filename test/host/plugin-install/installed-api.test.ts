// The HTTP API the console's plugins page uses (issue 54): /installed-plugins lists, installs
// (a tarball as the body), switches and removes plugins of the running host's data directory,
// says restart_needed until the host restarts, refuses an incompatible package (422, the
// problems listed) and what the allow-list (FLOWHOST_PLUGIN_ALLOW) does not name (403).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { testStores } from '../../support/test-stores.js';
import { helloTarballs } from '../../support/plugin-tarballs.js';
import { type Body, callHost, startStockHost } from '../../support/install-host.js';

const tarballs = helloTarballs();
const gzip = { 'Content-Type': 'application/gzip' };

for (const store of testStores('installed plugins API')) {
  const test = suite(`installed plugins API (${store.label})`);

  test('install a sent tarball, restart_needed, run after a restart, disable, refuse, remove', async () => {
    const storeConfig = store.config();
    const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-installed-api-'));
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      callHost(dataDir, method, `/automation/v1${path}`, body, headers);
    let host = await startStockHost({ dataDir, ...storeConfig });
    try {
      const empty = await call('GET', '/installed-plugins');
      assert.equal([empty.status, empty.data, empty.restart_needed], [200, [], false]);

      const installed = await call('POST', '/installed-plugins', readFileSync(tarballs.v1), gzip);
      assert.is(installed.status, 201, JSON.stringify(installed));
      assert.equal(
        [installed.data.id, installed.data.version, installed.data.enabled, installed.restart_needed],
        ['hello', '1.0.0', true, true],
      );
      assert.match(installed.message, /Installed hello 1\.0\.0\. It takes effect when the host restarts\./);
      const listed = await call('GET', '/installed-plugins');
      assert.equal(
        listed.data.map((p: Body) => [p.id, p.package, p.loaded]),
        [['hello', 'flowhost-plugin-hello', false]],
      );
      assert.is((await call('GET', '/plugins')).restart_needed, true);

      const again = await call('POST', '/installed-plugins', readFileSync(tarballs.v1), gzip);
      assert.is(again.status, 409, JSON.stringify(again));
      assert.is(again.code, 'plugin_already_installed');
      const future = await call('POST', '/installed-plugins', readFileSync(tarballs.future), gzip);
      assert.is(future.status, 422, JSON.stringify(future));
      assert.is(future.code, 'plugin_incompatible');
      assert.match(future.data.problems.join('\n'), /needs flowhost \^2\.0\.0/);
      const path = await call('POST', '/installed-plugins', { package: tarballs.v2 });
      assert.is(path.status, 403, JSON.stringify(path));
      assert.is(path.code, 'plugin_not_allowed');
      const notGzip = await call('POST', '/installed-plugins', Buffer.from('plain text'), gzip);
      assert.is(notGzip.status, 400, JSON.stringify(notGzip));
      const noPackage = await call('POST', '/installed-plugins', { name: 'x' });
      assert.is(noPackage.status, 400, JSON.stringify(noPackage));
      assert.is((await call('PATCH', '/installed-plugins/ghost', { enabled: false })).code, 'plugin_not_installed');
    } finally {
      await host.stop();
    }

    host = await startStockHost({ dataDir, ...storeConfig });
    try {
      const listed = await call('GET', '/installed-plugins');
      assert.equal([listed.data[0].loaded, listed.restart_needed], [true, false]);
      const greeted = await callHost(dataDir, 'GET', '/hello/v1/greeting?name=Bo');
      assert.is(greeted.data.message, 'Hello, Bo!');
      // A plugin that needs it holds it: neither disabled nor removed under it.
      const friend = await call('POST', '/installed-plugins', readFileSync(tarballs.friend), gzip);
      assert.is(friend.status, 201, JSON.stringify(friend));
      assert.equal(friend.data.depends_on, ['hello@^1']);
      const held = await call('PATCH', '/installed-plugins/hello', { enabled: false });
      assert.is(held.status, 409, JSON.stringify(held));
      assert.is(held.code, 'plugin_required');
      assert.match(held.message, /Plugin 'hello' cannot be disabled: 'friend' depends on it/);
      assert.is((await call('DELETE', '/installed-plugins/hello')).code, 'plugin_required');
      assert.is((await call('DELETE', '/installed-plugins/friend')).status, 200);
      const off = await call('PATCH', '/installed-plugins/hello', { enabled: false });
      assert.equal([off.status, off.data.enabled, off.restart_needed], [200, false, true]);
      if (storeConfig.mongodbUrl) {
        // The store's record follows: every host of the database runs the same set.
        const client = await MongoClient.connect(storeConfig.mongodbUrl);
        try {
          const stored = await client.db().collection('host_installed_plugins').find({}).toArray();
          assert.equal(
            stored.map((d) => [d._id, d.version, d.enabled]),
            [['hello', '1.0.0', false]],
          );
        } finally {
          await client.close();
        }
      }
      const plan = await call('GET', '/installed-plugins/hello/purge');
      assert.is(plan.status, 200, JSON.stringify(plan));
      assert.equal(plan.data.jobs, [{ name: 'hello:forget-old', count: 1 }]);
      assert.is(plan.data.migrations, true);
      // Disabled, it still runs here until the restart and could write its data again: no purge yet.
      const running = await call('DELETE', '/installed-plugins/hello?purge=true');
      assert.is(running.status, 409, JSON.stringify(running));
      assert.is(running.code, 'plugin_running');
      assert.match(running.message, /disable it \(flowhost plugins disable hello\), restart the host, then remove it with purge/);
      assert.is((await call('GET', '/installed-plugins')).data.length, 1, 'nothing removed');
      assert.equal(await host.store.collection('agenda_jobs').count({ name: { $regex: '^hello:' } }), 1, 'nothing purged');
      await host.stop();
      host = await startStockHost({ dataDir, ...storeConfig });
      const removed = await call('DELETE', '/installed-plugins/hello?purge=true');
      assert.is(removed.status, 200, JSON.stringify(removed));
      assert.equal(removed.purged.jobs, plan.data.jobs);
      assert.equal(await host.store.collection('agenda_jobs').count({ name: { $regex: '^hello:' } }), 0);
      assert.is(await host.store.collection('plugin_migrations').findOne({ _id: 'hello' }), null);
      assert.equal((await call('GET', '/installed-plugins')).data, []);
      assert.not.ok(existsSync(join(dataDir, 'plugins/node_modules/flowhost-plugin-hello')));
    } finally {
      await host.stop();
    }
  });

  test('the allow-list refuses a package it does not name, by name once npm has read the tarball, and changes nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-installed-allow-'));
    const host = await startStockHost({ dataDir, ...store.config(), pluginAllow: ['@acme/*', 'flowhost-plugin-future'] });
    try {
      const byName = await callHost(dataDir, 'POST', '/automation/v1/installed-plugins', { package: 'left-pad@1' });
      assert.is(byName.status, 403, JSON.stringify(byName));
      assert.match(
        byName.message,
        /'left-pad' is not on the plugin allow-list \(FLOWHOST_PLUGIN_ALLOW: @acme\/\*, flowhost-plugin-future\)/,
      );
      const sent = await callHost(dataDir, 'POST', '/automation/v1/installed-plugins', readFileSync(tarballs.v1), gzip);
      assert.is(sent.status, 403, JSON.stringify(sent));
      assert.match(sent.message, /Package 'flowhost-plugin-hello' is not on the plugin allow-list/);
      assert.not.ok(existsSync(join(dataDir, 'plugins')), 'no plugins folder was left');
    } finally {
      await host.stop();
    }
  });

  test.run();
}
