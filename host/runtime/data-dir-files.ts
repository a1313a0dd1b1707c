import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory } from './make-directory.js';

/**
 * Files a running host keeps in its data directory so the CLI can reach it instead of
 * opening the database behind its back:
 *   host.json         { pid, url } of the host holding the directory
 *   local-credential  a random token (0600) accepted as `Authorization: Flowhost-Local <token>`
 */
export const HOST_FILE = 'host.json';
export const LOCAL_CREDENTIAL_FILE = 'local-credential';
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';
export const DATABASE_FILE = 'flowhost.db';

export interface HostFile {
  pid: number;
  url: string;
  /** Base of the core namespace, e.g. http://127.0.0.1:8080/api/automation/v1 */
  api_base: string;
  started_at: string;
}

/** Writes atomically (temp + rename) with the given mode. */
export function writePrivateFile(path: string, content: string, mode = 0o600): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  renameSync(tmp, path);
}

export function publishHost(dataDir: string, url: string, apiBase: string, token = randomBytes(32).toString('base64url')): string {
  makeDirectory(dataDir);
  writePrivateFile(join(dataDir, LOCAL_CREDENTIAL_FILE), `${token}\n`);
  const info: HostFile = { pid: process.pid, url, api_base: apiBase, started_at: new Date().toISOString() };
  writePrivateFile(join(dataDir, HOST_FILE), `${JSON.stringify(info)}\n`);
  return token;
}

export function unpublishHost(dataDir: string): void {
  rmSync(join(dataDir, HOST_FILE), { force: true });
  rmSync(join(dataDir, LOCAL_CREDENTIAL_FILE), { force: true });
}

export function readHostFile(dataDir: string): (HostFile & { token: string }) | null {
  try {
    const info = JSON.parse(readFileSync(join(dataDir, HOST_FILE), 'utf8')) as HostFile;
    const token = readFileSync(join(dataDir, LOCAL_CREDENTIAL_FILE), 'utf8').trim();
    return { ...info, token };
  } catch {
    return null;
  }
}

/** Whether the process a host.json names still runs (a host killed with -9 leaves its file behind). */
export function hostProcessAlive(info: HostFile): boolean {
  if (!Number.isSafeInteger(info.pid) || info.pid <= 0) return false;
  try {
    process.kill(info.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
