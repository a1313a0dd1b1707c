import { join, resolve } from 'node:path';
import type { HostConfig } from '../config/schema.js';
import { DATABASE_FILE, readHostFile } from '../runtime/data-dir-files.js';
import type { AdminClient } from './admin-client.js';
import { createDataDir, describeTightened } from '../runtime/prepare-data-dir.js';
import { remoteAdmin } from './remote-admin.js';
import { waitForStartingHost } from './data-dir-store.js';

/**
 * Opens the store when nobody holds it; when a host holds the data directory, goes
 * through that host (its address and local credential are in the directory). The store
 * drivers and the users domain load only on the direct path, so a command that goes
 * through a running host loads none of them (and `--help` none at all).
 */
export async function openAdmin(config: HostConfig): Promise<AdminClient> {
  // MongoDB is shared by every host at once: the CLI works on the database directly.
  // The MongoDB driver loads only when a MongoDB URL is configured.
  const { directAdmin } = await import('./direct-admin.js');
  if (config.mongodbUrl) return directAdmin(await (await import('../store/mongodb/index.js')).openMongoStore({ url: config.mongodbUrl }));
  const { openEmbeddedStore, StoreLockedError } = await import('../store/embedded/index.js');
  const dataDir = resolve(config.dataDir);
  // Said on stderr as serve logs it: a CLI command may be the first to open an old 0755 directory.
  const tightened = createDataDir(dataDir);
  if (tightened) process.stderr.write(`flowhost: ${describeTightened(tightened)}\n`);
  try {
    const store = await openEmbeddedStore({ file: join(dataDir, DATABASE_FILE), exclusive: true });
    return await directAdmin(store);
  } catch (error) {
    if (!(error instanceof StoreLockedError)) throw error;
    // No address yet: the holder is a host still starting (host.json comes once it listens).
    const running = readHostFile(dataDir) ?? (await waitForStartingHost(dataDir));
    return remoteAdmin({ url: running.url, apiBase: running.api_base, token: running.token });
  }
}
