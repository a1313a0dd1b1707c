/**
 * Stored files (uploads, the media library): bytes beside the documents. The embedded
 * store keeps them as files in the data directory, MongoDB in GridFS, so a cluster of
 * hosts on one database sees the same files. A plugin gets its own bucket
 * (`services.blobs`), named after it.
 */
import type { Readable } from 'node:stream';

export interface BlobInfo {
  /** Opaque, URL-safe. */
  id: string;
  filename: string;
  content_type: string;
  size: number;
  /** Hex SHA-256 of the bytes, computed while they were written. */
  sha256: string;
  created_at: Date;
}

export interface BlobPutOptions {
  filename: string;
  contentType: string;
  /** The write fails with BlobTooLargeError past this many bytes, leaving nothing behind. */
  maxBytes: number;
}

export interface BlobBucket {
  /** Streams `source` into a new blob; on any failure nothing of it remains. */
  put(source: Readable, options: BlobPutOptions): Promise<BlobInfo>;
  stat(id: string): Promise<BlobInfo | null>;
  /** The bytes, or null when there is no such blob. */
  open(id: string): Promise<Readable | null>;
  /** true when it existed. */
  delete(id: string): Promise<boolean>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the limit of ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}
