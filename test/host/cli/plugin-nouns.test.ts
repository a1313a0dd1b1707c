import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { repoRoot } from '../../support/host-process.js';
import { cliInProcess, runCli, startCliHost, type CliPlace } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { resolvePlugins } from '../../../host/plugin-resolver.js';
import { testStores } from '../../support/test-stores.js';
import { pluginNouns } from '../../../host/cli/plugin-nouns.js';
import { defineCliNoun, definePlugin } from '../../../sdk/index.js';

const helloPath = join(repoRoot, 'dist/examples/hello-plugin/index.js');
const env = { FLOWHOST_PLUGINS: helloPath };

// In process, on every store: the CLI with FLOWHOST_PLUGINS naming the example plugin, against
// a host on the data directory that runs it (loaded from the same module the CLI names).
for (const store of testStores('cli: nouns from plugins')) {
  const test = suite<{ host: Host; dataDir: string }>(`cli: nouns from plugins (${store.label})`);
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config(), await resolvePlugins([helloPath], {})));
  });
  test.after(async ({ host }) => {
    await host.stop();
  });
  const cli = (ctx: CliPlace, ...args: string[]) => runCli(ctx, args, { env });

  test("a plugin's noun runs its commands through the API, with --json", async (ctx) => {
    const greeted = await cli(ctx, 'hello', 'greet', 'Ada');
    assert.is(greeted.status, 0, greeted.stderr);
    assert.is(greeted.stdout, 'Hello, Ada! (1 greeting so far)\n');
    const listed = await cli(ctx, 'hello', 'list', '--json');
    assert.is(listed.status, 0, listed.stderr);
    const greetings = JSON.parse(listed.stdout) as Array<{ message: string }>;
    assert.equal(
      greetings.map((g) => g.message),
      ['Hello, Ada!'],
    );
    const help = await cliInProcess(['--help'], { env });
    assert.match(help.stdout, /flowhost hello <command>/);
    assert.match(help.stdout.replace(/\s+/g, ' '), /Greet someone and list the greetings \(plugin hello\)/);
  });

  test('an unknown command of the noun is a usage error; without the plugin the noun does not exist', async (ctx) => {
    const unknown = await cli(ctx, 'hello', 'shout');
    assert.is(unknown.status, 2);
    assert.match(unknown.stderr, /Unknown argument: shout|Name a command/);
    const absent = await runCli(ctx, ['hello', 'list']);
    assert.is(absent.status, 2);
  });

  test.run();
}

const test = suite('cli: nouns from plugins, shadowing');

test('a noun that shadows a built-in or another plugin is refused, naming the plugin', () => {
  const noun = (name: string) =>
    defineCliNoun({ noun: name, describe: 'x', commands: [{ command: 'go', describe: 'x', run: () => undefined }] });
  const plugin = (id: string, name: string) =>
    definePlugin({ id, version: '1.0.0', flowhost: '^1.0.0', cli: [noun(name)], setup: () => undefined });
  assert.throws(() => pluginNouns([plugin('a', 'flows')]), /Plugin 'a': CLI noun 'flows' is already built in/);
  assert.throws(() => pluginNouns([plugin('a', 'x'), plugin('b', 'x')]), /Plugin 'b': CLI noun 'x' is already declared by plugin 'a'/);
});

test.run();
