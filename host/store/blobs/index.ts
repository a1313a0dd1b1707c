/**
 * The blob buckets of a host: files under `<data dir>/blobs` with the embedded store (a
 * temporary directory, removed at stop, for an in-memory host), GridFS with MongoDB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobBucket } from '../../../core/store/blob-port.js';
import type { DocumentStore } from '../../../core/store/port.js';
import type { MongoStore } from '../mongodb/index.js';
import { FileBlobBucket } from './file-blobs.js';

export { FileBlobBucket };

export interface BlobStore {
  /** The bucket of this name (a plugin's is named after the plugin). */
  bucket(name: string): BlobBucket;
  close(): void;
}

/** A plugin id as a directory or GridFS bucket name: `@acme/x` → `acme_x`. */
export function bucketName(name: string): string {
  return name.replace(/^@/, '').replace(/[^A-Za-z0-9_-]/g, '_');
}

export async function openBlobStore(store: DocumentStore, dataDir: string | null): Promise<BlobStore> {
  if (store.kind === 'mongodb') {
    // GridFS (and the driver) load only for a MongoDB store.
    const { GridFsBlobBucket } = await import('./gridfs-blobs.js');
    const mongo = store as MongoStore;
    return { bucket: (name) => new GridFsBlobBucket(mongo.driverDb, bucketName(name)), close: () => undefined };
  }
  let root = dataDir ? join(dataDir, 'blobs') : null;
  const temporary = !dataDir;
  return {
    bucket(name) {
      root ??= mkdtempSync(join(tmpdir(), 'flowhost-blobs-'));
      // One process holds the data directory: what a crash left half-written goes now.
      return new FileBlobBucket(join(root, bucketName(name)), { sweep: true });
    },
    close() {
      if (temporary && root) rmSync(root, { recursive: true, force: true });
    },
  };
}
