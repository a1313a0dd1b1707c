import { join } from 'node:path';
import type { DocumentStore } from '../../core/store/port.js';
import type { HostConfig } from '../config/schema.js';
import { openEmbeddedStore, StoreLockedError } from './embedded/index.js';
import { DATABASE_FILE, readHostFile } from '../runtime/data-dir-files.js';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, holder: string) {
    super(`The data directory ${dataDir} is in use by another Flowhost process${holder}. Stop it, or use the CLI (it talks to the running host).`);
    this.name = 'DataDirInUseError';
  }
}

/**
 * The store a config asks for: MongoDB when MONGODB_URL is set, otherwise the embedded
 * SQLite file in the data directory, held exclusively (the OS drops the lock when the
 * holder dies, so a process killed with -9 never blocks the next start).
 */
export async function openStore(config: HostConfig, dataDir: string | null): Promise<DocumentStore> {
  if (config.mongodbUrl) {
    throw new Error('MONGODB_URL is set, but this build has no MongoDB adapter yet; unset it to use the embedded store');
  }
  if (!dataDir) return openEmbeddedStore({ file: ':memory:' });
  try {
    return await openEmbeddedStore({ file: join(dataDir, DATABASE_FILE), exclusive: true });
  } catch (error) {
    if (error instanceof StoreLockedError) {
      const holder = readHostFile(dataDir);
      throw new DataDirInUseError(dataDir, holder ? ` (pid ${holder.pid}, ${holder.url})` : '');
    }
    throw error;
  }
}
