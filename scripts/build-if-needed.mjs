#!/usr/bin/env node
// `npm start` builds first when dist/ is missing or older than any source file, so the
// quickstart is `npm install` then `npm start` with nothing in between.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const target = join(root, 'dist/host/cli/main.js');
// Written last by scripts/build.mjs: an incremental build leaves unchanged outputs' times alone.
const built = join(root, 'dist/.built');

function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) latest = Math.max(latest, newest(full));
    else if (/\.(ts|tsx|css)$/.test(name)) latest = Math.max(latest, stat.mtimeMs);
  }
  return latest;
}

const sources = ['core', 'host', 'plugins', 'sdk'].map((d) => join(root, d)).filter(existsSync);
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
