// wp/v2/media on both stores: uploads (multipart and raw), list headers and filters, get,
// update, delete with and without force, the bytes served, and the upload limit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { createHost } from '../../../host/create-host.js';
import { testStores } from '../../support/test-stores.js';
import { blobCount } from '../../support/blob-count.js';

type Attachment = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads wp JSON
const WP = { namespace: 'wp/v2' };
const LIMIT = 4096;

/** The 24 bytes that carry a PNG's size, then padding. */
function png(width: number, height: number, padding = 40): Buffer {
  const head = Buffer.alloc(24 + padding);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head;
}

function form(file: Buffer | null, filename: string, type: string, fields: Record<string, string> = {}, field = 'file'): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) data.append(field, new Blob([file], { type }), filename);
  return data;
}

async function postCount(t: TestHost): Promise<number> {
  return (await t.host.content.findPosts({ post_type: 'attachment', per_page: 100 })).total;
}

for (const store of testStores('media: wp/v2/media')) {
  const test = suite<{ t: TestHost; dir: string }>(`media: wp/v2/media (${store.label})`);
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'flowhost-media-test-'));
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), dataDir: ctx.dir, pluginSettings: { 'core-media': { max_upload_bytes: LIMIT } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  });

  test('multipart upload: 201, the attachment, Location; the bytes are served inline', async ({ t }) => {
    const bytes = png(3, 2);
    const res = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: form(bytes, 'photo one.png', 'image/png', { alt_text: 'A photo', caption: 'Taken <today>' }),
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    const a = res.body;
    assert.is(a.type, 'attachment');
    assert.is(a.status, 'inherit');
    assert.is(a.media_type, 'image');
    assert.is(a.mime_type, 'image/png');
    assert.is(a.alt_text, 'A photo');
    assert.is(a.title.rendered, 'photo one');
    assert.is(a.caption.rendered, '<p>Taken &lt;today&gt;</p>\n');
    assert.equal(a.media_details, { filesize: bytes.length, width: 3, height: 2 });
    assert.is(a.post, null);
    assert.is(res.headers.get('location'), `${t.url}${t.host.config.apiPrefix}/wp/v2/media/${a.id}`);
    assert.ok(String(a.source_url).startsWith(`${t.url}/flowhost-media/${a.id}/`), a.source_url);

    const served = await fetch(a.source_url);
    assert.is(served.status, 200);
    assert.is(served.headers.get('content-type'), 'image/png');
    assert.is(served.headers.get('content-length'), String(bytes.length));
    assert.is(served.headers.get('x-content-type-options'), 'nosniff');
    assert.is(served.headers.get('content-disposition'), null);
    assert.equal(Buffer.from(await served.arrayBuffer()), bytes);
  });

  test('raw upload (Content-Disposition) with fields in the query; served as a download', async ({ t }) => {
    const res = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: Buffer.from('PK\u0003\u0004 not really a zip'),
      query: { title: 'The archive', alt_text: 'none' },
      headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="../../etc/bundle.zip"' },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    assert.is(res.body.title.rendered, 'The archive');
    assert.is(res.body.media_type, 'file');
    assert.is(res.body.mime_type, 'application/zip');
    assert.match(res.body.source_url, /\/bundle\.zip$/);
    const served = await fetch(res.body.source_url);
    assert.is(served.status, 200);
    assert.match(String(served.headers.get('content-disposition')), /^attachment; filename="bundle.zip"/);
    assert.is(await served.text(), 'PK\u0003\u0004 not really a zip');
  });

  test('a raw upload of type octet-stream gets its type from the file name', async ({ t }) => {
    const res = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: Buffer.from('hello'),
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=notes.txt' },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    assert.is(res.body.mime_type, 'text/plain');
  });

  test('list: X-WP-Total and X-WP-TotalPages, filters, a page past the end', async ({ t }) => {
    const all = await t.request<Attachment[]>('GET', '/media', { ...WP, as: 'anonymous' });
    assert.is(all.status, 200);
    assert.is(all.body.length, 3);
    assert.is(all.headers.get('x-wp-total'), '3');
    assert.is(all.headers.get('x-wp-totalpages'), '1');
    const paged = await t.request<Attachment[]>('GET', '/media', { ...WP, query: { per_page: 2, page: 2 } });
    assert.is(paged.body.length, 1);
    assert.is(paged.headers.get('x-wp-totalpages'), '2');
    const images = await t.request<Attachment[]>('GET', '/media', { ...WP, query: { media_type: 'image' } });
    assert.equal(
      images.body.map((a) => a.mime_type),
      ['image/png'],
    );
    const zips = await t.request<Attachment[]>('GET', '/media', { ...WP, query: { mime_type: 'application/zip' } });
    assert.is(zips.body.length, 1);
    const search = await t.request<Attachment[]>('GET', '/media', { ...WP, query: { search: 'archive' } });
    assert.is(search.body.length, 1);
    const past = await t.request('GET', '/media', { ...WP, query: { page: 9 } });
    assert.is(past.status, 400);
    assert.is(past.body.code, 'rest_post_invalid_page_number');
    const tooMany = await t.request('GET', '/media', { ...WP, query: { per_page: 101 } });
    assert.is(tooMany.status, 400);
  });

  test("list: WordPress's include, exclude, orderby=include, order, offset and author (a trial found them ignored)", async ({ t }) => {
    const all = (await t.request<Attachment[]>('GET', '/media', WP)).body.map((a) => a.id as number);
    assert.is(all.length, 3);
    const [newest, middle, oldest] = all as [number, number, number];
    const ids = async (query: Record<string, string | number>) =>
      (await t.request<Attachment[]>('GET', '/media', { ...WP, query })).body.map((a) => a.id as number);
    assert.equal(await ids({ include: `${oldest},${newest}` }), [newest, oldest]);
    assert.equal(await ids({ include: `${oldest},${newest}`, orderby: 'include' }), [oldest, newest]);
    assert.equal(await ids({ exclude: String(middle) }), [newest, oldest]);
    assert.equal(await ids({ order: 'asc' }), [oldest, middle, newest]);
    assert.equal(await ids({ offset: 2 }), [oldest]);
    assert.equal(await ids({ author: 999 }), []);
    const admin = (await t.request<Attachment>('GET', `/media/${newest}`, WP)).body.author as number;
    assert.is((await ids({ author: admin })).length, 3);
  });

  test('contexts: edit adds the raw texts for those who may edit, 401 for strangers; embed is short; others 400', async ({ t }) => {
    const [first] = (await t.request<Attachment[]>('GET', '/media', { ...WP, query: { media_type: 'image' } })).body;
    const id = first!.id as number;
    await t.request('POST', `/media/${id}`, {
      ...WP,
      body: { title: 'Raw & <b>bold</b>', caption: 'A caption', description: 'Described' },
    });
    const edit = await t.request<Attachment>('GET', `/media/${id}`, { ...WP, query: { context: 'edit' } });
    assert.is(edit.status, 200);
    assert.is(edit.body.title.raw, 'Raw & <b>bold</b>');
    assert.is(edit.body.caption.raw, 'A caption');
    assert.is(edit.body.description.raw, 'Described');
    const view = await t.request<Attachment>('GET', `/media/${id}`, { ...WP, as: 'anonymous' });
    assert.is(view.body.title.raw, undefined, 'no raw text in the view context');
    const stranger = await t.request<Attachment>('GET', `/media/${id}`, { ...WP, as: 'anonymous', query: { context: 'edit' } });
    assert.is(stranger.status, 401);
    assert.is(stranger.body.code, 'rest_forbidden_context');
    const strangerList = await t.request<Attachment>('GET', '/media', { ...WP, as: 'anonymous', query: { context: 'edit' } });
    assert.is(strangerList.status, 401);
    assert.is(strangerList.body.code, 'rest_forbidden_context');
    const editList = await t.request<Attachment[]>('GET', '/media', { ...WP, query: { context: 'edit', include: String(id) } });
    assert.is(editList.body[0]!.title.raw, 'Raw & <b>bold</b>');
    const embed = await t.request<Attachment>('GET', `/media/${id}`, { ...WP, as: 'anonymous', query: { context: 'embed' } });
    assert.is(embed.status, 200);
    assert.equal(Object.keys(embed.body).sort(), [
      'alt_text',
      'author',
      'caption',
      'date',
      'id',
      'link',
      'media_details',
      'media_type',
      'mime_type',
      'slug',
      'source_url',
      'title',
      'type',
    ]);
    const bogus = await t.request<Attachment>('GET', `/media/${id}`, { ...WP, query: { context: 'bogus' } });
    assert.is(bogus.status, 400);
    assert.is(bogus.body.code, 'rest_invalid_param');
    const missing = await t.request<Attachment>('GET', '/media/99999', { ...WP, as: 'anonymous', query: { context: 'edit' } });
    assert.is(missing.status, 404, 'a missing attachment is 404 before the context is checked');
  });

  test('get one; 404 rest_post_invalid_id for others', async ({ t }) => {
    const [first] = (await t.request<Attachment[]>('GET', '/media', WP)).body;
    const one = await t.request<Attachment>('GET', `/media/${first!.id}`, { ...WP, as: 'anonymous' });
    assert.is(one.status, 200);
    assert.is(one.body.id, first!.id);
    const missing = await t.request('GET', '/media/99999', WP);
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'rest_post_invalid_id');
    const post = await t.host.content.createPost({ title: 'A post', status: 'publish' });
    const notMedia = await t.request('GET', `/media/${post.post_id}`, WP);
    assert.is(notMedia.status, 404);
  });

  test('update: title, alt_text, caption, description, parent', async ({ t }) => {
    const [first] = (await t.request<Attachment[]>('GET', '/media', { ...WP, query: { media_type: 'image' } })).body;
    const parent = await t.host.content.createPost({ title: 'Parent', status: 'publish' });
    const res = await t.request<Attachment>('POST', `/media/${first!.id}`, {
      ...WP,
      body: { title: 'New title', alt_text: 'New alt', caption: 'Cap', description: 'Line 1\nLine 2', post: parent.post_id },
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.title.rendered, 'New title');
    assert.is(res.body.alt_text, 'New alt');
    assert.is(res.body.caption.rendered, '<p>Cap</p>\n');
    assert.is(res.body.description.rendered, '<p>Line 1<br />\nLine 2</p>\n');
    assert.is(res.body.post, parent.post_id);
    const children = await t.request<Attachment[]>('GET', '/media', { ...WP, query: { parent: parent.post_id } });
    assert.equal(
      children.body.map((a) => a.id),
      [first!.id],
    );
    const badParent = await t.request('POST', `/media/${first!.id}`, { ...WP, body: { post: 99999 } });
    assert.is(badParent.status, 400);
  });

  test('permissions: anonymous 401, subscriber 403, author may upload', async ({ t }) => {
    const anon = await t.request('POST', '/media', { ...WP, as: 'anonymous', body: form(Buffer.from('x'), 'x.txt', 'text/plain') });
    assert.is(anon.status, 401);
    const sub = await t.createUser('sub', 'subscriber');
    const refused = await t.request('POST', '/media', { ...WP, as: sub, body: form(Buffer.from('x'), 'x.txt', 'text/plain') });
    assert.is(refused.status, 403);
    const author = await t.createUser('writer', 'author');
    const ok = await t.request<Attachment>('POST', '/media', {
      ...WP,
      as: author,
      body: form(Buffer.from('by author'), 'a.txt', 'text/plain'),
    });
    assert.is(ok.status, 201);
    assert.is(ok.body.author, author.userId);
    // WordPress: authors delete their own media only.
    const other = await t.createUser('other-writer', 'author');
    const refusedDelete = await t.request('DELETE', `/media/${ok.body.id}`, { ...WP, as: other, query: { force: true } });
    assert.is(refusedDelete.status, 403);
    assert.is(refusedDelete.body.code, 'rest_cannot_delete');
    const deleted = await t.request('DELETE', `/media/${ok.body.id}`, { ...WP, as: author, query: { force: true } });
    assert.is(deleted.status, 200);
  });

  test('no file: 400 rest_upload_no_data, nothing stored', async ({ t }) => {
    const [posts, blobs] = [await postCount(t), await blobCount(t, 'core-media')];
    const noFile = await t.request('POST', '/media', { ...WP, body: form(null, '', '', { title: 'x' }) });
    assert.is(noFile.status, 400);
    assert.is(noFile.body.code, 'rest_upload_no_data');
    const wrongField = await t.request('POST', '/media', { ...WP, body: form(Buffer.from('x'), 'x.txt', 'text/plain', {}, 'upload') });
    assert.is(wrongField.body.code, 'rest_upload_no_data');
    const empty = await t.request('POST', '/media', { ...WP, body: Buffer.alloc(0), headers: { 'Content-Type': 'image/png' } });
    assert.is(empty.status, 400);
    assert.is(empty.body.code, 'rest_upload_no_data');
    const unnamed = await t.request('POST', '/media', { ...WP, body: Buffer.from('bytes'), headers: { 'Content-Type': 'image/png' } });
    assert.is(unnamed.status, 400);
    assert.is(unnamed.body.code, 'rest_upload_no_content_disposition');
    assert.is(await postCount(t), posts);
    assert.is(await blobCount(t, 'core-media'), blobs);
  });

  test('a form cut short or a skipped file part cut short: 400, nothing stored, the host still answers', async ({ t }) => {
    const [posts, blobs] = [await postCount(t), await blobCount(t, 'core-media')];
    for (const field of ['file', 'other']) {
      const body = `--b\r\nContent-Disposition: form-data; name="${field}"; filename="cut.png"\r\nContent-Type: image/png\r\n\r\nhalf a fi`;
      const res = await t.request('POST', '/media', { ...WP, body, headers: { 'Content-Type': 'multipart/form-data; boundary=b' } });
      assert.is(res.status, 400, JSON.stringify(res.body));
    }
    assert.is(await postCount(t), posts);
    assert.is(await blobCount(t, 'core-media'), blobs);
    assert.is((await t.request('GET', '/media', WP)).status, 200);
  });

  test('a client that goes away mid-upload leaves nothing stored', async ({ t }) => {
    const [posts, blobs] = [await postCount(t), await blobCount(t, 'core-media')];
    const target = new URL(`${t.url}${t.host.config.apiPrefix}/wp/v2/media`);
    await new Promise<void>((done) => {
      const req = request(target, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`,
          'Content-Type': 'image/png',
          'Content-Disposition': 'attachment; filename=gone.png',
          'Content-Length': '3000',
        },
      });
      req.on('error', () => done());
      req.on('response', () => done());
      req.write(Buffer.alloc(1000));
      setTimeout(() => req.destroy(), 100);
    });
    for (let i = 0; i < 50 && (await blobCount(t, 'core-media')) !== blobs; i++) await new Promise((r) => setTimeout(r, 20));
    assert.is(await blobCount(t, 'core-media'), blobs);
    assert.is(await postCount(t), posts);
    assert.is((await t.request('GET', '/media', WP)).status, 200);
  });

  test('over the limit: 413 rest_upload_too_large naming the limit, nothing stored', async ({ t }) => {
    const [posts, blobs] = [await postCount(t), await blobCount(t, 'core-media')];
    const big = Buffer.alloc(LIMIT * 3, 1);
    const multipart = await t.request('POST', '/media', { ...WP, body: form(big, 'big.txt', 'text/plain') });
    assert.is(multipart.status, 413);
    assert.is(multipart.body.code, 'rest_upload_too_large');
    assert.match(String(multipart.body.message), String(LIMIT));
    const raw = await t.request('POST', '/media', {
      ...WP,
      body: big,
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=big.txt' },
    });
    assert.is(raw.status, 413);
    assert.is(raw.body.code, 'rest_upload_too_large');
    const exact = await t.request('POST', '/media', {
      ...WP,
      body: Buffer.alloc(LIMIT, 2),
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=exact.txt' },
    });
    assert.is(exact.status, 201, 'exactly the limit fits');
    await t.request('DELETE', `/media/${(exact.body as Attachment).id}`, { ...WP, query: { force: true } });
    assert.is(await postCount(t), posts);
    assert.is(await blobCount(t, 'core-media'), blobs);
    // The host still answers.
    assert.is((await t.request('GET', '/media', WP)).status, 200);
  });

  test('delete: 501 without force; with it the attachment and its bytes are gone', async ({ t }) => {
    const created = await t.request<Attachment>('POST', '/media', { ...WP, body: form(Buffer.from('bye'), 'bye.txt', 'text/plain') });
    const id = created.body.id;
    const blobs = await blobCount(t, 'core-media');
    const soft = await t.request('DELETE', `/media/${id}`, WP);
    assert.is(soft.status, 501);
    assert.is(soft.body.code, 'rest_trash_not_supported');
    const hard = await t.request<Attachment>('DELETE', `/media/${id}`, { ...WP, query: { force: true } });
    assert.is(hard.status, 200);
    assert.is(hard.body.deleted, true);
    assert.is(hard.body.previous.id, id);
    assert.is((await t.request('GET', `/media/${id}`, WP)).status, 404);
    assert.is((await fetch(created.body.source_url)).status, 404);
    assert.ok((await blobCount(t, 'core-media')) < blobs);
    assert.is((await t.request('DELETE', `/media/${id}`, { ...WP, query: { force: true } })).status, 404);
  });

  test('an attachment whose delete was interrupted (left in trash) is gone to readers', async ({ t }) => {
    const created = await t.request<Attachment>('POST', '/media', { ...WP, body: form(Buffer.from('half'), 'half.txt', 'text/plain') });
    await t.host.content.updatePost(created.body.id, { status: 'trash' });
    assert.is((await t.request('GET', `/media/${created.body.id}`, WP)).status, 404, 'a trashed attachment is already gone to readers');
  });

  test.run();
}

for (const store of testStores('media: boot repair')) {
  const repair = suite(`media: an interrupted delete is finished at the next boot (${store.label})`);
  repair('the trashed attachment and its bytes are gone after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowhost-media-repair-'));
    const config = { ...store.config(), dataDir: dir };
    try {
      const first = await createTestHost({ plugins: [], config });
      const created = await first.request<Attachment>('POST', '/media', {
        ...WP,
        body: form(Buffer.from('half'), 'half.txt', 'text/plain'),
      });
      assert.is(created.status, 201);
      const kept = await first.request<Attachment>('POST', '/media', { ...WP, body: form(Buffer.from('kept'), 'kept.txt', 'text/plain') });
      // A crash after the trash mark, before the blob and the post went.
      await first.host.content.updatePost(created.body.id, { status: 'trash' });
      const before = await blobCount(first, 'core-media');
      await first.stop();
      // The second boot issues no administrator password, so it is a plain host.
      const host = await createHost({
        plugins: [],
        coreApi: false,
        env: {},
        config: { ...config, port: 0, host: '127.0.0.1', logLevel: 'silent', schedulerLockLifetime: 2000 },
      });
      const url = await host.start();
      const second = { host } as TestHost;
      try {
        assert.is(await second.host.content.getPost(created.body.id), null);
        assert.ok((await blobCount(second, 'core-media')) < before);
        const served = await fetch(`${url}/flowhost-media/${kept.body.id}/kept.txt`);
        assert.is(await served.text(), 'kept');
      } finally {
        await host.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  repair.run();
}
