import { join } from 'node:path';
import type { DocumentStore } from '../../core/store/port.js';
import type { HostConfig } from '../config/schema.js';
import { openEmbeddedStore, StoreLockedError } from './embedded/index.js';
import { DATABASE_FILE, readHostFile } from '../runtime/data-dir-files.js';
import { DataDirError } from '../runtime/prepare-data-dir.js';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, holder: string) {
    super(
      `The data directory ${dataDir} is in use by another Flowhost process${holder}. Stop it, or use the CLI (it talks to the running host).`,
    );
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
  const file = join(dataDir, DATABASE_FILE);
  try {
    return await openEmbeddedStore({ file, exclusive: true });
  } catch (error) {
    if (error instanceof StoreLockedError) {
      const holder = readHostFile(dataDir);
      throw new DataDirInUseError(dataDir, holder ? ` (pid ${holder.pid}, ${holder.url})` : '');
    }
    // SQLite's own words (`disk I/O error`, `unable to open database file`) name no file:
    // the user gets the file, SQLite's reason and code, and what to check.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) {
      throw new DataDirError(
        `The database ${file} cannot be opened: ${(error as Error).message} (${code}). Check that the file and ${dataDir} are writable by the user running Flowhost and that the disk has space.`,
      );
    }
    throw error;
  }
}
