#!/usr/bin/env node
// The third-party path, tried as a plugin author tries it (docs/plugin-authoring.md, "1. The
// package"): examples/hello-plugin copied OUTSIDE this repository, so no parent
// node_modules helps; `npm pack` of the built repository beside it; `npm install -D
// ../flowhost-<version>.tgz` exactly as the guide writes it; then the example's own
// `npm test`; then the installed `flowhost` command there (scripts/check-installed-bin.mjs):
// `--help`, `serve` with the example's build to its first 200 on the embedded store, the
// example's CLI noun through it, and a clean stop. Exits non-zero, with the failing step's
// output, when any step fails.
//
//   node scripts/check-example-outside.mjs            (after `npm run build`)
//   node scripts/check-example-outside.mjs --keep     leaves the directory for a look
//
// Offline by design: `--prefer-offline` answers from the npm cache that installing this
// repository filled (same pinned versions). Install scripts are skipped and better-sqlite3's
// binding is copied from this repository's node_modules (same version, same Node): built
// from source it takes minutes on a 2-core machine, and its prebuilt download is a
// github.com fetch, not the registry. FLOWHOST_EXAMPLE_SCRIPTS=1 runs them as a user would.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInstalledBin } from './check-installed-bin.mjs';

const root = new URL('..', import.meta.url).pathname;
const keep = process.argv.includes('--keep');
const withScripts = process.env.FLOWHOST_EXAMPLE_SCRIPTS === '1';
const work = mkdtempSync(join(tmpdir(), 'flowhost-outside-'));
const plugin = join(work, 'hello-plugin');
const timings = [];

function step(label, command, args, cwd) {
  const started = Date.now();
  try {
    execFileSync(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  } catch (error) {
    console.error(
      `example outside the tree: "${[command, ...args].join(' ')}" failed in ${cwd}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    throw error;
  }
  timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

let ok = false;
try {
  if (!existsSync(join(root, 'dist/sdk/index.js'))) throw new Error('build first: node scripts/build.mjs');
  step('pack', 'npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], root);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack produced no tarball');
  // The example's sources only: what an author copies, not what an earlier run built here.
  cpSync(join(root, 'examples/hello-plugin'), plugin, { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });
  const install = [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    ...(withScripts ? [] : ['--ignore-scripts']),
    '-D',
    `../${tarball}`,
  ];
  step('install', 'npm', install, plugin);
  if (!withScripts) {
    const binding = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    cpSync(join(root, binding), join(plugin, binding));
  }
  step('test', 'npm', ['test'], plugin);
  // After npm test, which built the example into dist/: the development loop of the guide's §9.
  const bin = await checkInstalledBin(plugin, {
    dataDir: join(work, 'data'),
    plugin: './dist/index.js',
    command: ['hello', 'greet', 'Ada'],
    expect: 'Hello, Ada!',
    served: '"method":"POST","url":"/api/hello/v1/greeting"',
  });
  ok = true;
  console.log(
    `example outside the tree: installed ${tarball}, passed its own npm test and ran its flowhost (${[...timings, ...bin].join(', ')})`,
  );
} finally {
  if (keep) console.log(`left in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
