import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runCli } from '../../support/host-process.js';
import { loadPluginNouns } from '../../../host/cli/plugin-nouns.js';
import { resolvePlugins } from '../../../host/plugin-resolver.js';
import { definePluginManifest } from '../../../sdk/manifest.js';
import { defineCliNoun, definePlugin } from '../../../sdk/index.js';

const test = suite('cli: plugin manifests');
const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-manifest-'));
const manifestPath = join(repoRoot, 'dist/test/support/lazy-plugin/manifest.js');
const env = { FLOWHOST_PLUGINS: manifestPath };

test("--help lists a manifest's noun without importing its command module", () => {
  const help = runCli(['--help'], env);
  assert.is(help.status, 0, help.stderr);
  assert.match(help.stdout, /flowhost lazy-fixture <command>/);
  assert.match(help.stdout.replace(/\s+/g, ' '), /A noun whose commands load only when named \(plugin lazy-fixture\)/);
});

test('another noun does not import it either; its own noun does, and runs', () => {
  const other = runCli(['plugins', 'list', '--json', '--data-dir', dataDir], env);
  assert.is(other.status, 0, other.stderr);
  assert.ok(
    (JSON.parse(other.stdout) as Array<{ id: string }>).some((p) => p.id === 'lazy-fixture'),
    'the host built for the command runs the manifest plugin',
  );
  const own = runCli(['lazy-fixture', 'ping', '--init', '--data-dir', dataDir], env);
  assert.is(own.status, 0, own.stderr);
  assert.is(own.stdout, 'pong\n');
  const help = runCli(['lazy-fixture', '--help'], env);
  assert.match(help.stdout, /flowhost lazy-fixture ping/);
});

const noun = (name: string) =>
  defineCliNoun({ noun: name, describe: 'x', commands: [{ command: 'go', describe: 'x', run: () => undefined }] });
const plugin = definePlugin({ id: 'm', version: '1.0.0', flowhost: '^1.0.0', setup: () => undefined });
const refusing = () => Promise.reject(new Error('loaded'));

test('a manifest noun loads only when the arguments name it, and must load the noun it names', async () => {
  const manifest = definePluginManifest({ id: 'm', cli: [{ noun: 'mm', describe: 'x', load: refusing }], load: refusing });
  const listed = await loadPluginNouns([manifest], ['flows', 'list']);
  assert.equal(
    listed.map((n) => [n.noun, n.describe]),
    [['mm', 'x (plugin m)']],
  );
  await loadPluginNouns([manifest], ['mm', 'go']).then(
    () => assert.unreachable('loaded'),
    (error: Error) => assert.match(error.message, /loaded/),
  );
  const wrong = definePluginManifest({
    id: 'm',
    cli: [{ noun: 'mm', describe: 'x', load: async () => noun('other') }],
    load: async () => plugin,
  });
  await loadPluginNouns([wrong], ['mm']).then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.match(error.message, /Plugin 'm': the manifest's CLI noun 'mm' loaded noun 'other'/),
  );
});

test('manifest nouns are checked for shadowing like definitions', async () => {
  const shadow = definePluginManifest({ id: 'm', cli: [{ noun: 'flows', describe: 'x', load: refusing }], load: refusing });
  await loadPluginNouns([shadow], []).then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.match(error.message, /Plugin 'm': CLI noun 'flows' is already built in/),
  );
  const a = definePlugin({ id: 'a', version: '1.0.0', flowhost: '^1.0.0', cli: [noun('x')], setup: () => undefined });
  const b = definePluginManifest({ id: 'b', cli: [{ noun: 'x', describe: 'x', load: refusing }], load: refusing });
  await loadPluginNouns([a, b], []).then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.match(error.message, /Plugin 'b': CLI noun 'x' is already declared by plugin 'a'/),
  );
});

test("a host's plugin list loads a manifest's plugin, which must be the plugin it names", async () => {
  const [loaded] = await resolvePlugins([manifestPath], {});
  assert.is(loaded!.id, 'lazy-fixture');
  assert.is(typeof loaded!.setup, 'function');
  const liar = definePluginManifest({ id: 'n', load: async () => plugin });
  await resolvePlugins(['liar'], { liar }).then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.match(error.message, /Plugin manifest 'n': load\(\) gave plugin 'm'/),
  );
});

test.run();
