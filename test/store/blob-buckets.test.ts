// The blob bucket contract on both adapters: files in a directory, GridFS on MongoDB.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobBucketContract } from '../contracts/blob-bucket.contract.js';
import { FileBlobBucket } from '../../host/store/blobs/index.js';
import { GridFsBlobBucket } from '../../host/store/blobs/gridfs-blobs.js';
import { openMongoStore, type MongoStore } from '../../host/store/mongodb/index.js';
import { freshDatabaseUrl, requireMongo } from '../support/mongo-env.js';

const root = mkdtempSync(join(tmpdir(), 'flowhost-blob-test-'));
const dir = join(root, 'bucket');
blobBucketContract({
  label: 'files',
  bucket: async () => new FileBlobBucket(dir, { sweep: true }),
  leftovers: async () => {
    try {
      return readdirSync(dir).length;
    } catch {
      return 0;
    }
  },
  close: async () => rmSync(root, { recursive: true, force: true }),
});

const url = requireMongo('blob bucket contract: gridfs');
if (url) {
  let store: MongoStore;
  blobBucketContract({
    label: 'gridfs',
    bucket: async () => {
      store = await openMongoStore({ url: freshDatabaseUrl(url) });
      return new GridFsBlobBucket(store.driverDb, 'contract');
    },
    leftovers: async () =>
      (await store.driverDb.collection('contract.files').countDocuments()) +
      (await store.driverDb.collection('contract.chunks').countDocuments()),
    close: async () => {
      await store.dropDatabase();
      await store.close();
    },
  });
}

// What only the file adapter does: the boot sweep removes what a crash left.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';

const sweep = suite('file blobs: the boot sweep');
sweep('temporary files and bytes without a sidecar go; whole blobs stay', async () => {
  const base = mkdtempSync(join(tmpdir(), 'flowhost-blob-sweep-'));
  try {
    const kept = await new FileBlobBucket(base).put(Readable.from([Buffer.from('keep')]), {
      filename: 'k',
      contentType: 'text/plain',
      maxBytes: 10,
    });
    mkdirSync(base, { recursive: true });
    writeFileSync(join(base, '.tmp-abc'), 'half');
    writeFileSync(join(base, 'orphan'), 'no sidecar');
    const reopened = new FileBlobBucket(base, { sweep: true });
    assert.ok(await reopened.stat(kept.id));
    assert.equal(readdirSync(base).sort(), [kept.id, `${kept.id}.json`].sort());
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
sweep.run();
