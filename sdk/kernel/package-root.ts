// The folder holding Flowhost's package.json, found the same way from every module.
//
// Paths relative to a module's own URL (`new URL('../..', import.meta.url)`) hold only in the
// tree tsc writes, where each module has a file of its own. `flowhost serve` runs from a
// bundle (dist/bundle/, scripts/bundle.mjs), where every module shares its chunk's URL, so
// files the build writes beside a module (precompiled validators) and the package's own
// folders are reached from the root instead. Node resolves a package's own name from inside
// it (package.json "exports"), so this holds in both layouts, and for an installed copy.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let root: string | undefined;

export function packageRoot(): string {
  root ??= dirname(createRequire(import.meta.url).resolve('flowhost/package.json'));
  return root;
}

/** A file the build writes under dist/, by its path there (`host/config/config-validator.cjs`). */
export function builtFile(path: string): string {
  return join(packageRoot(), 'dist', path);
}
