// `flowhost --help` and a command of one noun load only what they use (issue 34): the help
// text needs the nouns' names, not their code, nor ajv (the config validator is compiled at
// build time), nor the host. Asserted on what the process imported, not on a time: the
// built modules of the unbundled CLI (`dist/host/cli/main.js`), and for the bundle users run
// (`dist/bundle/main.js`) the built modules inside each chunk it loaded (dist/bundle/inputs.json).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanEnv, cliPath, modularCliPath, repoRoot } from '../../support/host-process.js';

const test = suite('cli: what a command loads');
const trace = join(repoRoot, 'test/support/import-trace.mjs');

function traced(program: string, args: string[]): { status: number | null; stdout: string; files: string[] } {
  const log = join(mkdtempSync(join(tmpdir(), 'flowhost-imports-')), 'imports.txt');
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', trace, program, ...args], {
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
  return { status: result.status, stdout: result.stdout, files };
}

function imported(args: string[]): { status: number | null; stdout: string; files: string[] } {
  const run = traced(modularCliPath, args);
  // The trace must have seen the program itself, or every "not loaded" below would hold trivially.
  assert.ok(run.files.includes('dist/host/cli/run-cli.js'), `the import trace saw the CLI load: ${run.files.length} files`);
  return run;
}

/** The bundle's run: the built modules and libraries inside the chunks it loaded, as `files`. */
function importedFromBundle(args: string[]): { status: number | null; stdout: string; files: string[] } {
  const chunks = JSON.parse(readFileSync(join(repoRoot, 'dist/bundle/inputs.json'), 'utf8')) as Record<string, string[]>;
  const run = traced(cliPath, args);
  const loaded = run.files.filter((file) => file.startsWith('dist/bundle/'));
  const inside = loaded.flatMap((file) => chunks[file.slice('dist/bundle/'.length)] ?? []);
  assert.ok(inside.includes('dist/host/cli/run-cli.js'), `the import trace saw the bundle's CLI load: ${loaded.join(', ')}`);
  // What a chunk leaves outside (createRequire, the store drivers) is imported as a file.
  return { ...run, files: [...inside, ...run.files.filter((file) => !file.startsWith('dist/bundle/'))] };
}

for (const [name, load] of [
  ['', imported],
  ['the bundle: ', importedFromBundle],
] as const) {
  test(`${name}--help lists every noun and loads no noun module, no ajv, no restify, no store`, () => {
    const help = load(['--help']);
    assert.is(help.status, 0);
    for (const noun of ['serve', 'flows', 'pipelines', 'jobs', 'chat', 'plugins', 'files', 'billing'])
      assert.match(help.stdout, new RegExp(`flowhost ${noun}\\b`));
    const loaded = (pattern: RegExp) => help.files.filter((file) => pattern.test(file));
    assert.equal(loaded(/dist\/host\/cli\/nouns\/(?!catalogue)/), [], 'no noun module');
    assert.equal(loaded(/node_modules\/(ajv|restify|better-sqlite3|mongodb|pino)\//), [], 'no validator compiler, server, store or logger');
    assert.equal(loaded(/dist\/(core|host)\/(kernel\/validator|create-host|http\/restify-adapter|store)/), []);
  });

  test(`${name}a command loads its own noun and not the others`, () => {
    const flows = load(['flows', '--help']);
    assert.is(flows.status, 0);
    assert.match(flows.stdout, /flowhost flows create/);
    const nouns = flows.files.filter((file) => /dist\/host\/cli\/nouns\//.test(file));
    assert.ok(nouns.some((file) => file.endsWith('nouns/flows.js')));
    assert.not.ok(
      nouns.some((file) => /nouns\/(serve|chat|media|posts)\.js$/.test(file)),
      nouns.join('\n'),
    );
  });
}

test.run();
