// What FLOWHOST_PLUGIN_ALLOW lets the API install, and how a host's installed set is told
// apart from the one its MongoDB database records (issue 54), alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allowedBy, checkApiSpec, registryName } from '../../../host/plugin-install/allow-list.js';
import { PluginInstallError } from '../../../host/plugin-install/install-error.js';
import { installedDifferences } from '../../../host/plugin-install/store-record.js';

const test = suite('plugin install: the allow-list and the installed set');

test('names, scopes and prefixes; an empty list allows any package', () => {
  const list = ['flowhost-plugin-hello', '@acme/*', 'git+https://git.example.com/acme/*'];
  assert.ok(allowedBy([], 'anything'));
  assert.ok(allowedBy(list, 'flowhost-plugin-hello'));
  assert.not.ok(allowedBy(list, 'flowhost-plugin-hello2'));
  assert.ok(allowedBy(list, '@acme/billing'));
  assert.not.ok(allowedBy(list, '@acmex/billing'));
  assert.ok(allowedBy(list, 'git+https://git.example.com/acme/tool.git'));
  assert.equal(['@acme/x@^1.2', 'x@latest', 'x', 'https://e.example/x.tgz', 'user/repo', './x.tgz'].map(registryName), [
    '@acme/x',
    'x',
    'x',
    null,
    null,
    null,
  ]);
});

test('the API never takes a path on the server, and names what the list refuses', () => {
  for (const spec of ['/tmp/x.tgz', './x', 'file:../x', '~/x.tgz']) {
    try {
      checkApiSpec(undefined, spec);
      assert.unreachable(spec);
    } catch (error) {
      assert.instance(error, PluginInstallError);
      assert.is((error as PluginInstallError).code, 'plugin_not_allowed');
    }
  }
  assert.throws(
    () => checkApiSpec(['@acme/*'], 'left-pad@1'),
    /'left-pad' is not on the plugin allow-list \(FLOWHOST_PLUGIN_ALLOW: @acme\/\*\)/,
  );
  checkApiSpec(['@acme/*'], '@acme/billing@^2');
});

test('each difference from the database record says the command that fixes it on this host', () => {
  const p = (id: string, version = '1.0.0', enabled = true) => ({
    id,
    package: `p-${id}`,
    spec: `p-${id}`,
    version,
    enabled,
    installed_at: '',
  });
  assert.equal(installedDifferences([p('a'), p('b', '2.0.0'), p('c', '1.0.0', false)], [p('b'), p('c'), p('d')]), [
    "plugin 'a' 1.0.0 is installed for this database but not on this host: run flowhost plugins install p-a",
    "plugin 'b' is 2.0.0 for this database but 1.0.0 on this host: run flowhost plugins update b 2.0.0",
    "plugin 'c' is disabled for this database but not on this host: run flowhost plugins disable c",
    "plugin 'd' is installed on this host but not for this database: run flowhost plugins remove d here, or install it again to record it",
  ]);
  assert.equal(installedDifferences([p('a')], [p('a')]), []);
});

test.run();

const npm = suite('plugin install: without npm');

npm('a missing npm is named, with how to name another, and leaves no plugins folder', async () => {
  const { cliInProcess } = await import('../../support/cli-in-process.js');
  const { mkdtempSync, existsSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-no-npm-'));
  const res = await cliInProcess(['plugins', 'install', 'left-pad', '--data-dir', dataDir], {
    env: { FLOWHOST_NPM: join(dataDir, 'no-such-npm') },
  });
  assert.is(res.status, 1, res.stdout);
  assert.match(res.stderr, /npm was not found \(looked for '.*no-such-npm' on PATH; FLOWHOST_NPM names another\)/);
  assert.match(res.stderr, /\(plugin_install_unavailable\)/);
  assert.not.ok(existsSync(join(dataDir, 'plugins')));
});

npm.run();
