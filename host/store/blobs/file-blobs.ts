/**
 * Blob buckets as files: `<root>/<bucket>/<id>` with a JSON sidecar `<id>.json`. A put
 * streams into a temporary file in the same directory (hashing and counting as it goes)
 * and renames it into place when complete, so a reader never sees half a file; past
 * `maxBytes`, or when the source fails, the temporary file is removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { BlobTooLargeError, type BlobBucket, type BlobInfo, type BlobPutOptions } from '../../../core/store/blob-port.js';

/**
 * 32 hex characters (128 random bits). Not base64url: an id that starts with '-' reads as
 * an option on a command line (`flowhost files delete -8jYP…`).
 */
export function newBlobId(): string {
  return randomBytes(16).toString('hex');
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const TEMP_PREFIX = '.tmp-';

/** Counts and hashes the bytes going through; fails with BlobTooLargeError past the cap. */
export class BlobMeter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }
}

interface Sidecar {
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: string;
}

export class FileBlobBucket implements BlobBucket {
  /** The boot sweep, when asked for: every operation waits for it. */
  private readonly ready: Promise<unknown>;

  constructor(
    private readonly dir: string,
    options: { sweep?: boolean } = {},
  ) {
    this.ready = options.sweep ? this.sweep().catch(() => 0) : Promise.resolve();
  }

  async put(source: Readable, options: BlobPutOptions): Promise<BlobInfo> {
    await this.ready;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = newBlobId();
    const temp = join(this.dir, `${TEMP_PREFIX}${id}`);
    const tempMeta = `${temp}.json`;
    const meter = new BlobMeter(options.maxBytes);
    const file = createWriteStream(temp, { mode: 0o600 });
    try {
      await pipeline(source, meter, file);
      const info: BlobInfo = {
        id,
        filename: options.filename,
        content_type: options.contentType,
        size: meter.size,
        sha256: meter.hash.digest('hex'),
        created_at: new Date(),
      };
      const sidecar: Sidecar = {
        filename: info.filename,
        content_type: info.content_type,
        size: info.size,
        sha256: info.sha256,
        created_at: info.created_at.toISOString(),
      };
      await writeFile(tempMeta, JSON.stringify(sidecar), { mode: 0o600 });
      // The bytes first, the sidecar last: a blob exists once its sidecar does.
      await rename(temp, join(this.dir, id));
      await rename(tempMeta, join(this.dir, `${id}.json`));
      return info;
    } catch (error) {
      source.destroy();
      // pipeline rejects at the first error, and the file's open may still be under way: it
      // would create the temporary file after the rm below. Its close comes after the open.
      file.destroy();
      if (!file.closed) await once(file, 'close').catch(() => undefined);
      await rm(temp, { force: true });
      await rm(tempMeta, { force: true });
      throw error;
    }
  }

  async stat(id: string): Promise<BlobInfo | null> {
    if (!ID.test(id)) return null;
    await this.ready;
    try {
      const sidecar = JSON.parse(await readFile(join(this.dir, `${id}.json`), 'utf8')) as Sidecar;
      return {
        id,
        filename: sidecar.filename,
        content_type: sidecar.content_type,
        size: sidecar.size,
        sha256: sidecar.sha256,
        created_at: new Date(sidecar.created_at),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async open(id: string): Promise<Readable | null> {
    if (!(await this.stat(id))) return null;
    const file = join(this.dir, id);
    try {
      await stat(file);
    } catch {
      return null;
    }
    return createReadStream(file);
  }

  async delete(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    await this.ready;
    // The sidecar first: once it is gone the blob is gone, whatever happens to the bytes.
    try {
      await unlink(join(this.dir, `${id}.json`));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        await rm(join(this.dir, id), { force: true });
        return false;
      }
      throw error;
    }
    await rm(join(this.dir, id), { force: true });
    return true;
  }

  /** Removes what a crash left: temporary files and bytes without a sidecar. */
  async sweep(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    const present = new Set(names);
    let removed = 0;
    for (const name of names) {
      const orphan = name.startsWith(TEMP_PREFIX) || (!name.endsWith('.json') && !present.has(`${name}.json`));
      if (orphan) {
        await rm(join(this.dir, name), { force: true });
        removed++;
      }
    }
    return removed;
  }
}
