import { chmodSync, closeSync, fsyncSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
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

/**
 * What start-up did to an existing data directory other users could enter: its mode before
 * (0755), and the system's reason when it could not be changed. The caller logs it.
 */
export interface Tightened {
  dir: string;
  from: number;
  failed?: string;
}

/**
 * Creates the data directory when missing (0700: makeDirectory's mode, which a umask can
 * only narrow); a DataDirError naming the path and the cause when it cannot. An existing
 * directory that group or others may read or enter is made 0700: the database in it holds
 * password hashes, session nonces and every post, and a file's own 0600 protects nothing
 * a 0644 file of an older version left beside it.
 */
export function createDataDir(dataDir: string): Tightened | null {
  try {
    makeDirectory(dataDir);
  } catch (error) {
    throw new DataDirError(`The data directory ${dataDir} cannot be created: ${describeCause(error)}. ${HINT}`);
  }
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  try {
    chmodSync(dataDir, 0o700);
    return { dir: dataDir, from: mode };
  } catch (error) {
    return { dir: dataDir, from: mode, failed: describeCause(error) };
  }
}

/** The log line for a tightened data directory (`flowhost serve` and every CLI command that opens the store). */
export function describeTightened(tightened: Tightened): string {
  const from = `0${tightened.from.toString(8)}`;
  return tightened.failed
    ? `The data directory ${tightened.dir} is ${from}: other users of this machine can read the database. It could not be made 0700 (${tightened.failed}); run: chmod 700 ${tightened.dir}`
    : `The data directory ${tightened.dir} was ${from}; it is now 0700 so that only this user can read the database and keys in it`;
}

/**
 * Creates the data directory when missing and proves it writable (a small file written,
 * synced and removed) before anything of Flowhost's goes there. Without this the first
 * write to fail was SQLite's, which says only `disk I/O error` or `unable to open
 * database file`, naming neither the path nor the cause.
 */
export function prepareDataDir(dataDir: string): Tightened | null {
  const tightened = createDataDir(dataDir);
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
  return tightened;
}
