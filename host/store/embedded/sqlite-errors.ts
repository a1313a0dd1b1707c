import { DuplicateKeyError } from '../../../core/store/port.js';
import { portIndexName } from './index-sql.js';

/** Rethrows SQLite's unique-constraint failures as the port's DuplicateKeyError; anything else as is. */
export function rethrowAsPortError(collection: string, error: unknown): never {
  const e = error as { code?: string; message?: string };
  if (e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new DuplicateKeyError(collection, '_id_');
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    const index = /index '([^']+)'/.exec(e.message ?? '')?.[1];
    throw new DuplicateKeyError(collection, index ? portIndexName(collection, index) : '_id_');
  }
  throw error;
}
