import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` that always ends. Node's `mkdirSync(dir, { recursive: true })` (and the
 * promise form) loops forever at full CPU when `mkdir` answers ENOENT for a path whose
 * parent exists, as it does under /proc and some FUSE mounts: `--data-dir /proc/x` hung
 * both `flowhost serve` and every CLI command with no output. This creates each missing
 * level once, parent first, and throws the system's error (EEXIST for a level another
 * process made meanwhile is fine) for the caller to word.
 */
export function makeDirectory(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let current = resolve(dir); !exists(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
