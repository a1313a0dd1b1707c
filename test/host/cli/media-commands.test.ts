// flowhost media upload/list and flowhost files upload/list/delete: through a running
// host, and in-process when none runs (the file is streamed as the raw body either way).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startHostProcess, waitForExit } from '../../support/host-process.js';

const test = suite('cli: media and files commands');

test('media upload/list and files upload/list/delete, with a host and without', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-media-'));
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
  const host = await startHostProcess(dataDir);
  try {
    const up = runCli(['media', 'upload', photo, '--alt', 'Sea', '--title', 'Holiday', '--json', '--data-dir', dataDir]);
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

    const list = runCli(['media', 'list', '--json', '--data-dir', dataDir]);
    assert.is(list.status, 0, list.stderr);
    assert.equal(
      (JSON.parse(list.stdout) as Array<{ id: number }>).map((m) => m.id),
      [item.id],
    );
    assert.match(runCli(['media', 'list', '--data-dir', dataDir]).stdout, /Holiday/);

    const file = runCli(['files', 'upload', csv, '--json', '--data-dir', dataDir]);
    assert.is(file.status, 0, file.stderr);
    const record = JSON.parse(file.stdout) as { id: string; filename: string; mime: string; size: number };
    assert.equal([record.filename, record.mime, record.size], ['rows.csv', 'text/csv', 12]);
    const files = JSON.parse(runCli(['files', 'list', '--json', '--data-dir', dataDir]).stdout) as Array<{ id: string }>;
    assert.equal(
      files.map((f) => f.id),
      [record.id],
    );
    assert.is(runCli(['media', 'upload', join(work, 'missing.png'), '--data-dir', dataDir]).status, 1);
  } finally {
    host.proc.kill('SIGTERM');
    await waitForExit(host.proc);
  }
  // No host: the command starts one for itself.
  const offline = runCli(['files', 'upload', csv, '--json', '--data-dir', dataDir]);
  assert.is(offline.status, 0, offline.stderr);
  const second = JSON.parse(offline.stdout) as { id: string };
  const all = JSON.parse(runCli(['files', 'list', '--json', '--data-dir', dataDir]).stdout) as Array<{ id: string }>;
  assert.is(all.length, 2);
  const removed = runCli(['files', 'delete', second.id, '--data-dir', dataDir]);
  assert.is(removed.status, 0, removed.stderr);
  assert.match(removed.stdout, /Deleted rows\.csv/);
  assert.is((JSON.parse(runCli(['files', 'list', '--json', '--data-dir', dataDir]).stdout) as unknown[]).length, 1);
  const media = JSON.parse(runCli(['media', 'list', '--json', '--data-dir', dataDir]).stdout) as unknown[];
  assert.is(media.length, 1);
  // Bytes live under the data directory: one blob (+ sidecar) per stored file.
  assert.is(readdirSync(join(dataDir, 'blobs', 'files')).length, 2);
});

test.run();
