// The BlobBucket port, run per adapter: put/stat/open/delete, a too-large write and a
// failing source leave nothing behind (the adapter's `leftovers` looks at its storage).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobBucket } from '../../core/store/blob-port.js';

export interface BlobContractTarget {
  label: string;
  bucket(): Promise<BlobBucket>;
  /** How many stored things (files, GridFS documents and chunks) the bucket holds. */
  leftovers(): Promise<number>;
  close(): Promise<void>;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `count` chunks of `size` bytes, slowly enough to interleave with the writer. */
function chunked(count: number, size: number, failAt?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAt !== undefined && sent === failAt) {
        this.destroy(new Error('the source broke'));
        return;
      }
      if (sent === count) return void this.push(null);
      sent++;
      setImmediate(() => this.push(Buffer.alloc(size, 97)));
    },
  });
}

export function blobBucketContract(target: BlobContractTarget): void {
  const test = suite(`blob bucket contract: ${target.label}`);
  let bucket: BlobBucket;
  test.before(async () => {
    bucket = await target.bucket();
  });
  test.after(() => target.close());

  test('put, stat, open and delete', async () => {
    const info = await bucket.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]), {
      filename: 'hello.txt',
      contentType: 'text/plain',
      maxBytes: 1000,
    });
    assert.match(info.id, /^[A-Za-z0-9_-]+$/, 'the id is URL-safe');
    assert.is(encodeURIComponent(info.id), info.id);
    assert.is(info.size, 11);
    assert.is(info.sha256, createHash('sha256').update('hello world').digest('hex'));
    assert.is(info.filename, 'hello.txt');
    assert.is(info.content_type, 'text/plain');
    assert.instance(info.created_at, Date);
    const stat = await bucket.stat(info.id);
    assert.ok(stat);
    assert.is(stat.size, 11);
    assert.is(stat.sha256, info.sha256);
    assert.is(stat.content_type, 'text/plain');
    const stream = await bucket.open(info.id);
    assert.ok(stream);
    assert.is(await text(stream), 'hello world');
    assert.is(await bucket.delete(info.id), true);
    assert.is(await bucket.stat(info.id), null);
    assert.is(await bucket.open(info.id), null);
    assert.is(await bucket.delete(info.id), false);
    assert.is(await target.leftovers(), 0);
  });

  test('an empty blob and a multi-chunk one', async () => {
    const empty = await bucket.put(Readable.from([]), { filename: 'empty', contentType: 'application/octet-stream', maxBytes: 10 });
    assert.is(empty.size, 0);
    assert.is(await text((await bucket.open(empty.id))!), '');
    const big = await bucket.put(chunked(40, 32 * 1024), {
      filename: 'big.bin',
      contentType: 'application/octet-stream',
      maxBytes: 2_000_000,
    });
    assert.is(big.size, 40 * 32 * 1024);
    assert.is((await text((await bucket.open(big.id))!)).length, 40 * 32 * 1024);
    await bucket.delete(empty.id);
    await bucket.delete(big.id);
    assert.is(await target.leftovers(), 0);
  });

  test('unknown and malformed ids are simply absent', async () => {
    for (const id of ['nope', '../../etc/passwd', '', 'a/b', 'x'.repeat(300)]) {
      assert.is(await bucket.stat(id), null);
      assert.is(await bucket.open(id), null);
      assert.is(await bucket.delete(id), false);
    }
  });

  test('past maxBytes: BlobTooLargeError and nothing stored', async () => {
    let error: unknown;
    try {
      await bucket.put(chunked(40, 32 * 1024), { filename: 'big.bin', contentType: 'application/octet-stream', maxBytes: 300_000 });
    } catch (e) {
      error = e;
    }
    assert.instance(error, BlobTooLargeError);
    assert.is((error as BlobTooLargeError).maxBytes, 300_000);
    assert.is(await target.leftovers(), 0);
  });

  test('exactly maxBytes fits', async () => {
    const info = await bucket.put(Readable.from([Buffer.alloc(100)]), {
      filename: 'a',
      contentType: 'application/octet-stream',
      maxBytes: 100,
    });
    assert.is(info.size, 100);
    await bucket.delete(info.id);
  });

  test('a source failing midway: the error, and nothing stored', async () => {
    let error: unknown;
    try {
      await bucket.put(chunked(40, 32 * 1024, 20), {
        filename: 'broken.bin',
        contentType: 'application/octet-stream',
        maxBytes: 10_000_000,
      });
    } catch (e) {
      error = e;
    }
    assert.instance(error, Error);
    assert.match((error as Error).message, 'the source broke');
    assert.is(await target.leftovers(), 0);
  });

  test('ids are distinct', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add((await bucket.put(Readable.from([Buffer.from('x')]), { filename: 'x', contentType: 'text/plain', maxBytes: 10 })).id);
    assert.is(ids.size, 5);
    for (const id of ids) await bucket.delete(id);
    assert.is(await target.leftovers(), 0);
  });

  test.run();
}
