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
  // Several hosts may share one MongoDB database: no data-directory lock there.
  // The driver loads only here: an embedded host never pays for it.
  if (config.mongodbUrl) return (await import('./mongodb/index.js')).openMongoStore({ url: config.mongodbUrl });
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
