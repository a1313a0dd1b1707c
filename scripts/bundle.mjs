#!/usr/bin/env node
// Bundles the command line (`flowhost`, `npm start`) into dist/bundle/: the modules tsc
// wrote and the pure-JavaScript libraries they import, as a few ES module files instead of
// about 900. A start spent most of its time finding, reading, compiling and linking
// modules one file at a time; the bundle starts `flowhost serve` in about 0.6 of the time
// (docs/performance.md, "Start-up: one bundle").
//
// - What loads lazily stays lazy: every `import()` becomes a chunk of its own (splitting),
//   so `flowhost --help` still loads no plugin code.
// - Left outside: the native binding (better-sqlite3), the MongoDB driver (optional
//   native peers it requires at run time), and the libraries a module loads lazily, through
//   `import()` or `createRequire` (restify too): those load from node_modules as before.
// - Modules that find files of the build find them from the package root
//   (core/kernel/package-root.ts), as every module shares its chunk's URL here.
// - The tree tsc writes stays whole: `flowhost/host`, the SDK and the tests import it, and
//   `node dist/host/cli/main.js` is the same command unbundled.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const outdir = join(root, 'dist/bundle');

// A library the code loads with `import('name')` stays a run-time import from node_modules:
// it loads lazily anyway, so bundling it gains no start-up, and an `import()` of a CommonJS
// library inside a bundle yields only its default export (`const { Agent } = await
// import('undici')` was undefined; test/e2e/stop-signals.test.ts failed on it).
const libraryImportsStayOutside = {
  name: 'library-imports-stay-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};

// The libraries' string-width becomes host/cli/string-width.ts, which loads it only for a
// string that is not plain ASCII (its tables cost every command about 50 ms at load).
const stringWidth = join(root, 'dist/host/cli/string-width.js');
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      args.kind === 'import-statement' && args.importer !== stringWidth ? { path: stringWidth } : undefined,
    );
  },
};

export async function bundle() {
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    metafile: true,
    entryPoints: { main: join(root, 'dist/host/cli/main.js') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: ['better-sqlite3', 'mongodb'],
    plugins: [libraryImportsStayOutside, lazyStringWidth],
    // Bundled CommonJS libraries call `require` for Node's own modules; an ES module has
    // none, so each chunk makes one (esbuild's documented recipe for ESM output).
    banner: { js: "import { createRequire as __flowhostRequire } from 'node:module'; const require = __flowhostRequire(import.meta.url);" },
    // Stack traces: run with `node --enable-source-maps` to read them as the built modules'.
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Which built modules each chunk holds (test/host/cli/help-loads.test.ts reads it: a
  // command must load no chunk holding another noun's code).
  const inputs = Object.fromEntries(
    Object.entries(metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, output]) => [file.replace(/^.*dist\/bundle\//, ''), Object.keys(output.inputs).sort()]),
  );
  writeFileSync(join(outdir, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await bundle();
