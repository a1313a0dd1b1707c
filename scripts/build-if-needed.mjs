#!/usr/bin/env node
// `npm start` and `npm test` build first when dist/ is missing or older than any source
// file, so the quickstart is `npm install` then `npm start` with nothing in between, and a
// test run right after `npm install` (CI's) does not pay for a build that changes nothing
// (tsc took about 7 s to find nothing to do, before the first suite could start).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './source-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const target = join(root, 'dist/host/cli/main.js');
// Written last by scripts/build.mjs (its time, then the source files it read, scripts/source-files.mjs):
// an incremental build leaves unchanged outputs' times alone.
const built = join(root, 'dist/.built');

const { files, newest } = sourceFiles(root);
const listed = existsSync(built) ? readFileSync(built, 'utf8').split('\n').slice(1).filter(Boolean) : [];
const stale =
  !existsSync(target) ||
  !existsSync(built) ||
  // Written by the build after tsc (scripts/compile-validators.mjs): a tsc-only build lacks it.
  !existsSync(join(root, 'dist/host/config/config-validator.cjs')) ||
  // And the bundle the command line runs (scripts/bundle.mjs).
  !existsSync(join(root, 'dist/bundle/main.js')) ||
  newest > statSync(built).mtimeMs ||
  files.join('\n') !== listed.join('\n') ||
  statSync(join(root, 'tsconfig.json')).mtimeMs > statSync(built).mtimeMs;
if (stale) {
  process.stdout.write('Building Flowhost (tsc)...\n');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
}
