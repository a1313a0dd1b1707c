#!/usr/bin/env node
// Installs the example third-party plugin the way its author's users would get Flowhost:
// `npm pack` of this repository (after `npm run build`), unpacked as
// examples/hello-plugin/node_modules/flowhost, then the plugin compiled with its own
// tsconfig against that package. Its compiled tests (examples/hello-plugin/dist/test)
// are then run by test/run.mjs like any suite. Flowhost's own dependencies resolve from
// this repository's node_modules (Node looks in every parent directory), so nothing is
// downloaded.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const example = join(root, 'examples/hello-plugin');
const started = Date.now();

const packDir = mkdtempSync(join(tmpdir(), 'flowhost-pack-'));
try {
  // --ignore-scripts: the build already ran (pretest); pack only what `files` lists.
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack produced no tarball');
  const target = join(example, 'node_modules/flowhost');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(packDir, tarball), '-C', target, '--strip-components=1']);
  rmSync(join(example, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(example, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  console.log(`examples/hello-plugin: installed ${tarball} and compiled in ${Date.now() - started} ms`);
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
