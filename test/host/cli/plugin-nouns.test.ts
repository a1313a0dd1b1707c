import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runCli } from '../../support/host-process.js';
import { pluginNouns } from '../../../host/cli/plugin-nouns.js';
import { defineCliNoun, definePlugin } from '../../../sdk/index.js';

const test = suite('cli: nouns from plugins');
const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-nouns-'));
const env = { FLOWHOST_PLUGINS: join(repoRoot, 'dist/examples/hello-plugin/index.js') };
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], env);

test("a plugin's noun runs its commands through the API, with --json", () => {
  const greeted = cli('hello', 'greet', 'Ada');
  assert.is(greeted.status, 0, greeted.stderr);
  assert.is(greeted.stdout, 'Hello, Ada! (1 greeting so far)\n');
  const listed = cli('hello', 'list', '--json');
  assert.is(listed.status, 0, listed.stderr);
  const greetings = JSON.parse(listed.stdout) as Array<{ message: string }>;
  assert.equal(
    greetings.map((g) => g.message),
    ['Hello, Ada!'],
  );
  const help = runCli(['--help'], env);
  assert.match(help.stdout, /flowhost hello <command>/);
  assert.match(help.stdout.replace(/\s+/g, ' '), /Greet someone and list the greetings \(plugin hello\)/);
});

test('an unknown command of the noun is a usage error; without the plugin the noun does not exist', () => {
  const unknown = cli('hello', 'shout');
  assert.is(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown argument: shout|Name a command/);
  const absent = runCli(['hello', 'list', '--data-dir', dataDir]);
  assert.is(absent.status, 2);
});

test('a noun that shadows a built-in or another plugin is refused, naming the plugin', () => {
  const noun = (name: string) =>
    defineCliNoun({ noun: name, describe: 'x', commands: [{ command: 'go', describe: 'x', run: () => undefined }] });
  const plugin = (id: string, name: string) =>
    definePlugin({ id, version: '1.0.0', flowhost: '^1.0.0', cli: [noun(name)], setup: () => undefined });
  assert.throws(() => pluginNouns([plugin('a', 'flows')]), /Plugin 'a': CLI noun 'flows' is already built in/);
  assert.throws(() => pluginNouns([plugin('a', 'x'), plugin('b', 'x')]), /Plugin 'b': CLI noun 'x' is already declared by plugin 'a'/);
});

test.run();
