#!/usr/bin/env node
// `npm start` and `npm test` build first when dist/ is missing or older than any source
// file, so the quickstart is `npm install` then `npm start` with nothing in between, and a
// test run right after `npm install` (CI's) does not pay for a build that changes nothing
// (tsc took about 7 s to find nothing to do, before the first suite could start).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const target = join(root, 'dist/host/cli/main.js');
// Written last by scripts/build.mjs: an incremental build leaves unchanged outputs' times alone.
const built = join(root, 'dist/.built');

// A directory's own time counts too: it changes when a file in it is added, renamed or
// removed, which leaves every remaining file's time as it was.
function newest(dir) {
  let latest = statSync(dir).mtimeMs;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) latest = Math.max(latest, newest(full));
    else if (/\.(ts|tsx|css|json)$/.test(name) && name !== 'suite-times.json') latest = Math.max(latest, stat.mtimeMs);
  }
  return latest;
}

// What tsconfig.json includes (the suites and benchmarks as well as the server), and the
// build's own scripts.
const sources = ['core', 'host', 'plugins', 'sdk', 'examples', 'test', 'bench', 'scripts'].map((d) => join(root, d)).filter(existsSync);
const stale =
  !existsSync(target) ||
  !existsSync(built) ||
  // Written by the build after tsc (scripts/compile-validators.mjs): a tsc-only build lacks it.
  !existsSync(join(root, 'dist/host/config/config-validator.cjs')) ||
  sources.some((d) => newest(d) > statSync(built).mtimeMs) ||
  statSync(join(root, 'tsconfig.json')).mtimeMs > statSync(built).mtimeMs;
if (stale) {
  process.stdout.write('Building Flowhost (tsc)...\n');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
}
