// flowhost media upload/list and flowhost files upload/list/delete: in process on every store
// through a host on the data directory, and spawned once with no host, where the command
// starts one for itself (the file is streamed as the raw body either way).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli as spawnCli } from '../../support/host-process.js';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { testStores } from '../../support/test-stores.js';

const work = mkdtempSync(join(tmpdir(), 'flowhost-cli-media-files-'));
const photo = join(work, 'holiday photo.png');
writeFileSync(
  photo,
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.from([0, 0, 0, 5, 0, 0, 0, 4]),
    Buffer.alloc(2 * 1024 * 1024),
  ]),
);
const csv = join(work, 'rows.csv');
writeFileSync(csv, 'a,b\n1,2\n3,4\n');

for (const store of testStores('cli: media and files commands')) {
  const test = suite<{ host: Host; dataDir: string }>(`cli: media and files commands (${store.label})`);
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config()));
  });
  test.after(async ({ host }) => {
    await host.stop();
  });

  test('media upload/list and files upload/list/delete through the host', async (ctx) => {
    const cli = (...args: string[]) => runCli(ctx, args);
    const up = await cli('media', 'upload', photo, '--alt', 'Sea', '--title', 'Holiday', '--json');
    assert.is(up.status, 0, up.stderr);
    const item = JSON.parse(up.stdout) as {
      id: number;
      alt_text: string;
      title: { rendered: string };
      media_details: Record<string, number>;
      source_url: string;
    };
    assert.is(item.alt_text, 'Sea');
    assert.is(item.title.rendered, 'Holiday');
    assert.equal(item.media_details, { filesize: 24 + 2 * 1024 * 1024, width: 5, height: 4 });
    assert.match(up.stderr, /Uploading holiday photo\.png: 100%/, 'progress for a large file');
    const served = await fetch(item.source_url);
    assert.is(Number(served.headers.get('content-length')), 24 + 2 * 1024 * 1024);
    await served.arrayBuffer();

    const list = await cli('media', 'list', '--json');
    assert.is(list.status, 0, list.stderr);
    assert.equal(
      (JSON.parse(list.stdout) as Array<{ id: number }>).map((m) => m.id),
      [item.id],
    );
    assert.match((await cli('media', 'list')).stdout, /Holiday/);

    const file = await cli('files', 'upload', csv, '--json');
    assert.is(file.status, 0, file.stderr);
    const record = JSON.parse(file.stdout) as { id: string; filename: string; mime: string; size: number };
    assert.equal([record.filename, record.mime, record.size], ['rows.csv', 'text/csv', 12]);
    const files = JSON.parse((await cli('files', 'list', '--json')).stdout) as Array<{ id: string }>;
    assert.equal(
      files.map((f) => f.id),
      [record.id],
    );
    assert.is((await cli('media', 'upload', join(work, 'missing.png'))).status, 1);

    const again = await cli('files', 'upload', csv, '--json');
    assert.is(again.status, 0, again.stderr);
    const second = JSON.parse(again.stdout) as { id: string };
    const all = JSON.parse((await cli('files', 'list', '--json')).stdout) as Array<{ id: string }>;
    assert.is(all.length, 2);
    // A plugin's destructive command asks too (the SDK's ctx.confirm): refused without --yes.
    const unasked = await cli('files', 'delete', second.id);
    assert.is(unasked.status, 1);
    assert.match(unasked.stderr, /not confirmed \(no terminal to ask on\); add --yes/);
    const removed = await cli('files', 'delete', second.id, '--yes');
    assert.is(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /Deleted rows\.csv/);
    assert.is((JSON.parse((await cli('files', 'list', '--json')).stdout) as unknown[]).length, 1);
    const media = JSON.parse((await cli('media', 'list', '--json')).stdout) as unknown[];
    assert.is(media.length, 1);
    // With the embedded store the bytes live under the data directory: one blob (+ sidecar)
    // per stored file. (MongoDB keeps them in GridFS.)
    if (store.label === 'embedded') assert.is(readdirSync(join(ctx.dataDir, 'blobs', 'files')).length, 2);
  });

  test.run();
}

// Spawned once, with no host: the command starts one for itself on the data directory and
// streams the file into it (the blob and its sidecar appear under blobs/files).
const spawned = suite('cli: files upload, spawned, no host');
spawned('files upload with no host running stores the file in the data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-media-'));
  const offline = spawnCli(['files', 'upload', csv, '--json', '--init', '--data-dir', dataDir]);
  assert.is(offline.status, 0, offline.stderr);
  const record = JSON.parse(offline.stdout) as { filename: string; size: number };
  assert.equal([record.filename, record.size], ['rows.csv', 12]);
  assert.is(readdirSync(join(dataDir, 'blobs', 'files')).length, 2);
});
spawned.run();
