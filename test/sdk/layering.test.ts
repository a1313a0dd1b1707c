import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The contract is the bottom layer (docs/architecture.md, "Layers and the dependency rule"):
// every file under sdk/ but sdk/testing/ imports nothing from core/, host/ or plugins/, so
// a plugin author's build sees the whole public API without the implementation, and core
// implements the SDK rather than the SDK re-exporting core. sdk/testing builds a real host.
const root = resolve(new URL('../../..', import.meta.url).pathname);
const sdkDir = join(root, 'sdk');
const forbidden = ['core', 'host', 'plugins'].map((dir) => join(root, dir));
const test = suite('sdk: the bottom layer');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return full === join(sdkDir, 'testing') ? [] : sources(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Each import of `file` (static, dynamic, `import()` types, re-exports) that leaves the SDK's layer. */
function offendingImports(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((spec) => {
      // The package's own host entry point (`flowhost/host`) is the host by another name.
      if (!spec.startsWith('.')) return spec === 'flowhost/host' || spec.startsWith('flowhost/host/');
      const target = resolve(dirname(file), spec);
      return forbidden.some((dir) => target === dir || target.startsWith(`${dir}/`));
    })
    .map((spec) => `${relative(root, file)} -> ${spec}`);
}

test('the scan sees every form of import', () => {
  const file = join(sdkDir, 'kernel/example.ts');
  const text = [
    "import { a } from '../../core/a.js';",
    "import type { B } from '../../host/b.js';",
    "export * from '../../plugins/c/index.js';",
    "export type { D } from '../../core/d.js';",
    "const e = await import('../../core/e.js');",
    "type F = import('../../host/f.js').F;",
    "import { g } from 'flowhost/host';",
    "import { ok } from './ok.js';",
    "import { alsoOk } from '../contract/content.js';",
    "import { pkg } from 'tapable';",
  ].join('\n');
  assert.equal(offendingImports(file, text), [
    'sdk/kernel/example.ts -> ../../core/a.js',
    'sdk/kernel/example.ts -> ../../host/b.js',
    'sdk/kernel/example.ts -> ../../plugins/c/index.js',
    'sdk/kernel/example.ts -> ../../core/d.js',
    'sdk/kernel/example.ts -> ../../core/e.js',
    'sdk/kernel/example.ts -> ../../host/f.js',
    'sdk/kernel/example.ts -> flowhost/host',
  ]);
});

test('no file under sdk/ (but sdk/testing) imports core/, host/ or plugins/', () => {
  const files = sources(sdkDir);
  assert.ok(files.length > 50, `found only ${files.length} SDK sources`);
  assert.ok(!files.some((file) => file.startsWith(join(sdkDir, 'testing'))));
  const offenders = files.flatMap((file) => offendingImports(file, readFileSync(file, 'utf8')));
  assert.equal(offenders, [], `imports that reach below the SDK:\n${offenders.join('\n')}`);
});

test.run();
