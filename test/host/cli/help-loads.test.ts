// `flowhost --help` and a command of one noun load only what they use (issue 34): the help
// text needs the nouns' names, not their code, nor ajv (the config validator is compiled at
// build time), nor the host. Asserted on what the process imported, not on a time.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanEnv, cliPath, repoRoot } from '../../support/host-process.js';

const test = suite('cli: what a command loads');
const trace = join(repoRoot, 'test/support/import-trace.mjs');

function imported(args: string[]): { status: number | null; stdout: string; files: string[] } {
  const log = join(mkdtempSync(join(tmpdir(), 'flowhost-imports-')), 'imports.txt');
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', trace, cliPath, ...args], {
    cwd: repoRoot,
    env: cleanEnv({ IMPORT_TRACE_FILE: log }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('file://'))
    .map((line) => line.slice('file://'.length).replace(`${repoRoot}/`, ''));
  rmSync(dirname(log), { recursive: true, force: true });
  // The trace must have seen the program itself, or every "not loaded" below would hold trivially.
  assert.ok(files.includes('dist/host/cli/run-cli.js'), `the import trace saw the CLI load: ${files.length} files`);
  return { status: result.status, stdout: result.stdout, files };
}

test('--help lists every noun and loads no noun module, no ajv, no restify, no store', () => {
  const help = imported(['--help']);
  assert.is(help.status, 0);
  for (const noun of ['serve', 'flows', 'pipelines', 'jobs', 'chat', 'plugins', 'files', 'billing'])
    assert.match(help.stdout, new RegExp(`flowhost ${noun}\\b`));
  const loaded = (pattern: RegExp) => help.files.filter((file) => pattern.test(file));
  assert.equal(loaded(/dist\/host\/cli\/nouns\/(?!catalogue)/), [], 'no noun module');
  assert.equal(loaded(/node_modules\/(ajv|restify|better-sqlite3|mongodb|pino)\//), [], 'no validator compiler, server, store or logger');
  assert.equal(loaded(/dist\/(core|host)\/(kernel\/validator|create-host|http\/restify-adapter|store)/), []);
});

test('a command loads its own noun and not the others', () => {
  const flows = imported(['flows', '--help']);
  assert.is(flows.status, 0);
  assert.match(flows.stdout, /flowhost flows create/);
  const nouns = flows.files.filter((file) => /dist\/host\/cli\/nouns\//.test(file));
  assert.ok(nouns.some((file) => file.endsWith('nouns/flows.js')));
  assert.not.ok(
    nouns.some((file) => /nouns\/(serve|chat|media|posts)\.js$/.test(file)),
    nouns.join('\n'),
  );
});

test.run();
