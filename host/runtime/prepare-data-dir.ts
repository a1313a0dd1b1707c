import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory } from './make-directory.js';

/** A data directory Flowhost cannot use: the message names the path and the cause (no stack for the user). */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** What the system said, in words, with its code (the code is what people search for). */
const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'the file system will not create a directory there',
  EEXIST: 'it exists and is not a directory',
  EIO: 'input/output error',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

export function describeCause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `${CAUSES[code] ?? (error as Error).message} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

const HINT = 'Make it writable by the user running Flowhost, or choose another with FLOWHOST_DATA_DIR or --data-dir.';

/** Creates the data directory when missing; a DataDirError naming the path and the cause when it cannot. */
export function createDataDir(dataDir: string): void {
  try {
    makeDirectory(dataDir);
  } catch (error) {
    throw new DataDirError(`The data directory ${dataDir} cannot be created: ${describeCause(error)}. ${HINT}`);
  }
}

/**
 * Creates the data directory when missing and proves it writable (a small file written,
 * synced and removed) before anything of Flowhost's goes there. Without this the first
 * write to fail was SQLite's, which says only `disk I/O error` or `unable to open
 * database file`, naming neither the path nor the cause.
 */
export function prepareDataDir(dataDir: string): void {
  createDataDir(dataDir);
  const probe = join(dataDir, `.write-test-${process.pid}`);
  try {
    const fd = openSync(probe, 'wx', 0o600);
    try {
      writeSync(fd, 'flowhost');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new DataDirError(`The data directory ${dataDir} cannot be written: ${describeCause(error)}. ${HINT}`);
  } finally {
    rmSync(probe, { force: true });
  }
}
