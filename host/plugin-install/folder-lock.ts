import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PluginInstallError } from './install-error.js';

const LOCK_FILE = '.install-lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One change to the plugins folder at a time (a CLI command and the API, or two API calls):
 * npm itself does not lock its project. The lock names its process; one whose process died
 * is taken over.
 */
export async function withFolderLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const path = join(folder, LOCK_FILE);
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(path, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && alive(holder))
      throw new PluginInstallError(
        'plugin_install_busy',
        `Another plugin install runs on ${folder} (process ${holder}); try again when it ends`,
      );
    writeFileSync(path, String(process.pid));
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}
