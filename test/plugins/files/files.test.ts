// The files plugin on both stores: upload/list/get/delete, the size cap (413, nothing kept),
// and the `files` fetch handler (one packet per CSV row, per JSON element, per text file).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, runHandler, type TestHost } from '../../../sdk/testing/index.js';
import { services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { blobCount } from '../../support/blob-count.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const LIMIT = 2048;

function form(text: string | Buffer, filename: string, type: string): FormData {
  const data = new FormData();
  data.append('note', 'ignored');
  data.append('file', new Blob([typeof text === 'string' ? Buffer.from(text) : text], { type }), filename);
  return data;
}

const CSV = 'name,city\nAda,London\nGrace,New York\n\nLinus,Helsinki\n';

for (const store of testStores('files plugin')) {
  const test = suite<{ t: TestHost; dir: string; ids: Record<string, string> }>(`files plugin (${store.label})`);
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'flowhost-files-test-'));
    ctx.ids = {};
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), dataDir: ctx.dir, pluginSettings: { files: { max_file_bytes: LIMIT } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  });

  test('upload (multipart field `file`): 201 with the record', async ({ t, ids }) => {
    const res = await t.request<Body>('POST', '/files', { body: form(CSV, 'people.csv', 'text/csv') });
    assert.is(res.status, 201, JSON.stringify(res.body));
    assert.is(res.body.success, true);
    const file = res.body.file;
    assert.is(file.filename, 'people.csv');
    assert.is(file.mime, 'text/csv');
    assert.is(file.size, Buffer.byteLength(CSV));
    assert.match(file.sha256, /^[0-9a-f]{64}$/);
    assert.match(file.id, /^[A-Za-z0-9_-]+$/);
    ids.csv = file.id;
    const json = await t.request<Body>('POST', '/files', {
      body: form(JSON.stringify([{ a: 1 }, { a: 2 }]), 'items.json', 'application/json'),
    });
    ids.json = json.body.file.id;
    const md = await t.request<Body>('POST', '/files', {
      body: form('Intro line\n\n# The Title\n\nBody text.', 'post.md', 'text/markdown'),
    });
    ids.md = md.body.file.id;
  });

  test('list and get', async ({ t, ids }) => {
    const list = await t.request<Body>('GET', '/files');
    assert.is(list.status, 200);
    assert.is(list.body.total, 3);
    assert.equal(new Set(list.body.files.map((f: Body) => f.id)), new Set(Object.values(ids)));
    for (const f of list.body.files) assert.equal(Object.keys(f).sort(), ['created_at', 'filename', 'id', 'mime', 'sha256', 'size']);
    const one = await t.request<Body>('GET', `/files/${ids.csv}`);
    assert.is(one.body.file.filename, 'people.csv');
    const missing = await t.request<Body>('GET', '/files/nope');
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'files_not_found');
  });

  test('only manage_options may use them', async ({ t }) => {
    const editor = await t.createUser('ed', 'editor');
    assert.is((await t.request('GET', '/files', { as: editor })).status, 403);
    assert.is((await t.request('POST', '/files', { as: editor, body: form('x', 'x.txt', 'text/plain') })).status, 403);
    assert.is((await t.request('GET', '/files', { as: 'anonymous' })).status, 401);
  });

  test('over the cap: 413, nothing stored', async ({ t }) => {
    const [blobs, total] = [await blobCount(t, 'files'), (await t.request<Body>('GET', '/files')).body.total];
    const res = await t.request<Body>('POST', '/files', { body: form(Buffer.alloc(LIMIT * 4, 65), 'big.csv', 'text/csv') });
    assert.is(res.status, 413);
    assert.is(res.body.code, 'rest_upload_too_large');
    assert.match(res.body.message, String(LIMIT));
    assert.is(await blobCount(t, 'files'), blobs);
    assert.is((await t.request<Body>('GET', '/files')).body.total, total);
  });

  test('the files handler: one packet per CSV row, stable item ids', async ({ t, ids }) => {
    const packets = await run(t, { file_id: ids.csv });
    assert.is(packets.length, 3);
    assert.equal(
      packets.map((p) => p.data.name),
      ['Ada', 'Grace', 'Linus'],
    );
    assert.equal(
      packets.map((p) => p.metadata.item_id),
      [`file:${ids.csv}:row:1`, `file:${ids.csv}:row:2`, `file:${ids.csv}:row:3`],
    );
    assert.is(packets[1]!.data.city, 'New York');
  });

  test('the files handler: JSON elements and a markdown file (title from its heading), all files', async ({ t, ids }) => {
    const packets = await run(t, {});
    const byId = new Map(packets.map((p) => [p.metadata.item_id, p]));
    assert.equal(byId.get(`file:${ids.json}:item:2`)?.data, { a: 2 });
    assert.is(byId.get(`file:${ids.md}`)?.data.title, 'The Title');
    assert.is(packets.length, 3 + 2 + 1);
    const capped = await run(t, { max_candidates: 2 });
    assert.is(capped.length, 2);
    const later = await run(t, { since: new Date(Date.now() + 60_000).toISOString() });
    assert.is(later.length, 0);
  });

  test('in a workflow run the handler feeds its fetch step', async ({ t, ids }) => {
    const step = { type: 'fetch', handler_slug: 'files', handler_config: { file_id: ids.csv } };
    const first = await t.executeAndWait({ workflow: { steps: [step] } });
    assert.is(first.status, 'completed', JSON.stringify(first));
    const steps = first.steps as Array<{ items_out: number }>;
    assert.ok(steps[0]!.items_out >= 1);
  });

  test('delete: the record and the bytes go', async ({ t, ids }) => {
    const blobs = await blobCount(t, 'files');
    const res = await t.request<Body>('DELETE', `/files/${ids.md}`);
    assert.is(res.status, 200);
    assert.is(res.body.deleted, true);
    assert.is((await t.request('GET', `/files/${ids.md}`)).status, 404);
    assert.ok((await blobCount(t, 'files')) < blobs);
    assert.is((await t.request('DELETE', `/files/${ids.md}`)).status, 404);
  });

  test.run();
}

/** The plugin's own `files` handler, run as a flow step would (its settings validated). */
async function run(t: TestHost, settings: Record<string, unknown>): Promise<Array<{ data: Body; metadata: Body }>> {
  const handler = (await t.host.services.get(services.handlerCatalogue, 'test')).handler('files');
  if (!handler) throw new Error('no files handler');
  return (await runHandler(handler, settings)) as Array<{ data: Body; metadata: Body }>;
}
