// What an upload may be, on every store (issue 30): an allow-list by extension, the bytes
// checked against the extension and the declared type (an HTML page called image/png is
// refused), text that is UTF-8 and no page, and file names without bidirectional or other
// control characters, read as UTF-8 from Content-Disposition. wp/v2/media and the files
// plugin, which share the upload code. Over HTTP with fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { blobCount } from '../../support/blob-count.js';

type Attachment = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads wp JSON
const WP = { namespace: 'wp/v2' };
const REFUSED = {
  code: 'rest_upload_sideload_error',
  message: 'Sorry, you are not allowed to upload this file type.',
  data: { status: 400 },
};
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0, 0, 0, 0, 0, 0, 0]),
]);
const PAGE = Buffer.from('<!DOCTYPE html><html><body><script>fetch("/api/automation/v1/users")</script></body></html>');

function form(bytes: Buffer, filename: string, type: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([bytes], { type }), filename);
  return data;
}

/** A header value carrying these UTF-8 bytes as they go on the wire (fetch sends each char as one byte). */
const wireBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

for (const store of testStores('media: what an upload may be')) {
  const test = suite<{ t: TestHost; dir: string }>(`media: what an upload may be (${store.label})`);
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'flowhost-media-uploads-'));
    ctx.t = await createTestHost({ plugins: [], config: { ...store.config(), dataDir: ctx.dir } });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  });

  const stored = async (t: TestHost) => [
    (await t.host.content.findPosts({ post_type: 'attachment', per_page: 100 })).total,
    await blobCount(t, 'core-media'),
  ];

  test('an HTML page declared image/png is refused, multipart and raw; nothing is kept', async ({ t }) => {
    const before = await stored(t);
    const multipart = await t.request('POST', '/media', { ...WP, body: form(PAGE, 'cat.png', 'image/png') });
    assert.is(multipart.status, 400, JSON.stringify(multipart.body));
    assert.equal(multipart.body, REFUSED);
    const raw = await t.request('POST', '/media', {
      ...WP,
      body: PAGE,
      headers: { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="cat.png"' },
    });
    assert.equal(raw.body, REFUSED);
    assert.equal(await stored(t), before);
  });

  test('extensions outside the allow-list are refused: HTML, SVG, executables, unknown', async ({ t }) => {
    const before = await stored(t);
    for (const [name, type, bytes] of [
      ['page.html', 'text/html', PAGE],
      ['logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
      ['setup.exe', 'application/octet-stream', Buffer.from('MZ\x90\x00')],
      ['app.js', 'text/javascript', Buffer.from('alert(1)')],
      ['noextension', 'text/plain', Buffer.from('hello')],
    ] as const) {
      const res = await t.request('POST', '/media', { ...WP, body: form(bytes, name, type) });
      assert.equal(res.body, REFUSED, name);
    }
    assert.equal(await stored(t), before);
  });

  test("the bytes must be the extension's type, and the declared type must agree", async ({ t }) => {
    const asJpeg = await t.request('POST', '/media', { ...WP, body: form(PNG, 'photo.jpg', 'image/jpeg') });
    assert.equal(asJpeg.body, REFUSED, 'PNG bytes named .jpg');
    const declaredJpeg = await t.request('POST', '/media', { ...WP, body: form(PNG, 'photo.png', 'image/jpeg') });
    assert.equal(declaredJpeg.body, REFUSED, 'a PNG declared image/jpeg');
    const pdfAsText = await t.request('POST', '/media', {
      ...WP,
      body: form(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj'), 'notes.txt', 'text/plain'),
    });
    assert.equal(pdfAsText.body, REFUSED, 'a PDF named .txt');
    const ok = await t.request<Attachment>('POST', '/media', { ...WP, body: form(PNG, 'photo.png', 'image/png') });
    assert.is(ok.status, 201, JSON.stringify(ok.body));
    assert.is(ok.body.mime_type, 'image/png');
    // A client that does not know the type: the extension's type is stored.
    const unknown = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: PNG,
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=shot.png' },
    });
    assert.is(unknown.status, 201);
    assert.is(unknown.body.mime_type, 'image/png');
  });

  test('text files: UTF-8, no NUL, not a page; CSV and markdown accepted', async ({ t }) => {
    const nul = await t.request('POST', '/media', { ...WP, body: form(Buffer.from('a\u0000b'), 'nul.txt', 'text/plain') });
    assert.equal(nul.body, REFUSED);
    const latin1 = await t.request('POST', '/media', {
      ...WP,
      body: form(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'latin1.txt', 'text/plain'),
    });
    assert.equal(latin1.body, REFUSED);
    const page = await t.request('POST', '/media', {
      ...WP,
      body: form(Buffer.concat([Buffer.from('\n  '), PAGE]), 'readme.txt', 'text/plain'),
    });
    assert.equal(page.body, REFUSED);
    const csv = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: form(Buffer.from('name,price\nTée,3\n'), 'prices.csv', 'text/csv'),
    });
    assert.is(csv.status, 201, JSON.stringify(csv.body));
    assert.is(csv.body.mime_type, 'text/csv');
    const md = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: form(Buffer.from('# Title\n\n> quoted <b>bold</b>\n'), 'doc.md', 'text/markdown'),
    });
    assert.is(md.status, 201, JSON.stringify(md.body));
    assert.is(md.body.mime_type, 'text/markdown');
  });

  test('file names: bidirectional and control characters go, UTF-8 stays (filename*, raw UTF-8, multipart)', async ({ t }) => {
    const rlo = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: form(Buffer.from('x'), 'invoice\u202Efdp.txt', 'text/plain'),
    });
    assert.is(rlo.status, 201, JSON.stringify(rlo.body));
    const meta = async (id: number) => (await t.host.content.getPost(id))!.meta;
    assert.is((await meta(rlo.body.id)).filename, 'invoicefdp.txt');
    const isolates = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: Buffer.from('x'),
      headers: { 'Content-Type': 'text/plain', 'Content-Disposition': `attachment; filename*=UTF-8''a%E2%81%A6b%E2%80%8Fc%D8%9Cd%07e.txt` },
    });
    assert.is((await meta(isolates.body.id)).filename, 'abcde.txt');
    const extended = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: Buffer.from('x'),
      headers: {
        'Content-Type': 'text/plain',
        'Content-Disposition': `attachment; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.txt`,
      },
    });
    assert.is(extended.status, 201, JSON.stringify(extended.body));
    assert.is((await meta(extended.body.id)).filename, 'résumé 日本.txt');
    assert.is(extended.body.title.rendered, 'résumé 日本');
    const rawUtf8 = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: Buffer.from('x'),
      headers: { 'Content-Type': 'text/plain', 'Content-Disposition': wireBytes('attachment; filename="Café Ünïcode.txt"') },
    });
    assert.is(rawUtf8.status, 201, JSON.stringify(rawUtf8.body));
    assert.is((await meta(rawUtf8.body.id)).filename, 'Café Ünïcode.txt');
    const served = await fetch(rawUtf8.body.source_url);
    assert.is(served.status, 200);
    const multipart = await t.request<Attachment>('POST', '/media', {
      ...WP,
      body: form(Buffer.from('x'), 'naïve 日本.txt', 'text/plain'),
    });
    assert.is((await meta(multipart.body.id)).filename, 'naïve 日本.txt');
  });

  test('a Content-Disposition without a usable name: rest_upload_invalid_disposition', async ({ t }) => {
    for (const header of ['attachment', "attachment; filename*=UTF-8''%ZZ%ZZ", 'attachment; filename=""']) {
      const res = await t.request('POST', '/media', {
        ...WP,
        body: Buffer.from('x'),
        headers: { 'Content-Type': 'text/plain', 'Content-Disposition': header },
      });
      assert.is(res.status, 400, header);
      assert.is(res.body.code, 'rest_upload_invalid_disposition', header);
    }
  });

  test('the files plugin shares the rules', async ({ t }) => {
    const before = await blobCount(t, 'files');
    const page = await t.request('POST', '/files', { body: form(PAGE, 'rows.csv', 'text/csv') });
    assert.equal(page.body, REFUSED);
    const html = await t.request('POST', '/files', { body: form(PAGE, 'page.html', 'text/html') });
    assert.equal(html.body, REFUSED);
    assert.is(await blobCount(t, 'files'), before);
    const csv = await t.request<{ file: { filename: string; mime: string } }>('POST', '/files', {
      body: form(Buffer.from('a,b\n1,2\n'), 'data\u202Ev.csv', 'text/csv'),
    });
    assert.is(csv.status, 201, JSON.stringify(csv.body));
    assert.equal([csv.body.file.filename, csv.body.file.mime], ['datav.csv', 'text/csv']);
  });

  test('allowed_upload_types replaces the list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowhost-media-uploads-own-'));
    const own = await createTestHost({
      plugins: [],
      builtins: false,
      config: { ...store.config(), dataDir: dir, pluginSettings: { 'core-media': { allowed_upload_types: { txt: 'text/plain' } } } },
    });
    try {
      assert.equal((await own.request('POST', '/media', { ...WP, body: form(PNG, 'photo.png', 'image/png') })).body, REFUSED);
      assert.is((await own.request('POST', '/media', { ...WP, body: form(Buffer.from('ok'), 'ok.txt', 'text/plain') })).status, 201);
    } finally {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.run();
}
