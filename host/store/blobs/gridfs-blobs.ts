/**
 * Blob buckets in GridFS (`<bucket>.files` / `<bucket>.chunks`), so every host on one
 * database sees the same files. Ids are our own URL-safe strings, not ObjectIds. Past
 * `maxBytes`, or when the source fails, the upload is aborted, which deletes its chunks.
 */
import { GridFSBucket, type Db } from 'mongodb';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobBucket, BlobInfo, BlobPutOptions } from '../../../core/store/blob-port.js';
import { BlobMeter, newBlobId } from './file-blobs.js';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

interface FilesDoc {
  _id: unknown;
  length: number;
  filename: string;
  uploadDate: Date;
  metadata?: { content_type?: string; sha256?: string; complete?: boolean };
}

export class GridFsBlobBucket implements BlobBucket {
  private readonly bucket: GridFSBucket;

  constructor(
    private readonly db: Db,
    private readonly name: string,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: name });
  }

  async put(source: Readable, options: BlobPutOptions): Promise<BlobInfo> {
    const id = newBlobId();
    const meter = new BlobMeter(options.maxBytes);
    const upload = this.bucket.openUploadStreamWithId(id as never, options.filename, { metadata: { content_type: options.contentType } });
    try {
      await pipeline(source, meter, upload);
    } catch (error) {
      source.destroy();
      await upload.abort().catch(() => undefined);
      // abort() removes the chunks it knows of; make sure nothing of this id is left.
      await this.db
        .collection(`${this.name}.chunks`)
        .deleteMany({ files_id: id as never })
        .catch(() => undefined);
      await this.db
        .collection(`${this.name}.files`)
        .deleteOne({ _id: id as never })
        .catch(() => undefined);
      throw error;
    }
    const sha256 = meter.hash.digest('hex');
    await this.db.collection(`${this.name}.files`).updateOne({ _id: id as never }, { $set: { 'metadata.sha256': sha256 } });
    const info = await this.stat(id);
    if (!info) throw new Error(`GridFS lost blob ${id} right after writing it`);
    return info;
  }

  async stat(id: string): Promise<BlobInfo | null> {
    if (!ID.test(id)) return null;
    const doc = (await this.db.collection(`${this.name}.files`).findOne({ _id: id as never })) as FilesDoc | null;
    if (!doc) return null;
    return {
      id,
      filename: doc.filename,
      content_type: doc.metadata?.content_type ?? 'application/octet-stream',
      size: doc.length,
      sha256: doc.metadata?.sha256 ?? '',
      created_at: doc.uploadDate,
    };
  }

  async open(id: string): Promise<Readable | null> {
    if (!(await this.stat(id))) return null;
    return this.bucket.openDownloadStream(id as never);
  }

  async delete(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    // The files document first: once it is gone the blob is gone; then its chunks.
    const removed = await this.db.collection(`${this.name}.files`).deleteOne({ _id: id as never });
    await this.db.collection(`${this.name}.chunks`).deleteMany({ files_id: id as never });
    return removed.deletedCount > 0;
  }
}
