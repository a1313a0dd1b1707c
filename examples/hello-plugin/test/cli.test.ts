// The `flowhost` command of the installed package (its package.json `bin`), run from this
// plugin's folder with the build named by path, as in the guide's development loop: it
// starts, and lists this plugin's CLI noun. No host is started: `--help` reads no store.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const pluginDir = fileURLToPath(new URL('../..', import.meta.url));
const manifest = createRequire(import.meta.url).resolve('flowhost/package.json');
const bin = join(dirname(manifest), (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { flowhost: string } }).bin.flowhost);

function flowhost(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: pluginDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, FLOWHOST_PLUGINS: './dist/index.js' },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

const cli = suite('hello-plugin: the installed flowhost command');

cli('flowhost --help starts and lists the hello noun beside the built-in ones', () => {
  const { status, stdout, stderr } = flowhost('--help');
  assert.is(status, 0, stderr);
  assert.match(stdout, /flowhost serve\s/);
  assert.match(stdout, /flowhost hello <command>\s+Greet someone and list the greetings/);
});

cli('flowhost hello --help lists its commands', () => {
  const { status, stdout, stderr } = flowhost('hello', '--help');
  assert.is(status, 0, stderr);
  assert.match(stdout, /flowhost hello greet <name>\s+Greet someone/);
  assert.match(stdout, /flowhost hello list\s+The latest greetings/);
});

cli.run();
