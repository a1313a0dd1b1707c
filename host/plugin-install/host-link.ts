import { lstatSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/kernel/package-root.js';

/**
 * `node_modules/flowhost` in the plugins folder: a link to the host's own package, so an
 * installed plugin's `import 'flowhost'` is the running host's SDK (one module instance).
 * npm never sees it: it is removed before npm runs (npm would prune it as extraneous, or
 * fetch flowhost from the registry for the plugins' peer dependency) and made again after.
 */
export function unlinkHost(folder: string): void {
  const link = join(folder, 'node_modules', 'flowhost');
  try {
    if (lstatSync(link).isSymbolicLink()) rmSync(link);
  } catch {
    // No link: nothing to remove.
  }
}

export function linkHost(folder: string): void {
  const modules = join(folder, 'node_modules');
  mkdirSync(modules, { recursive: true });
  unlinkHost(folder);
  rmSync(join(modules, 'flowhost'), { recursive: true, force: true });
  symlinkSync(packageRoot(), join(modules, 'flowhost'), 'dir');
}
