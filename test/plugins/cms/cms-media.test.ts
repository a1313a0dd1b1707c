// The cms-media fetch handler on both stores: the media library's items as packets,
// filtered by MIME type, with stable `media:<id>` identities.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, runHandler, type TestHost } from '../../../sdk/testing/index.js';
import { services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads wp JSON

/** The bytes each image type starts with: uploads are checked against them. */
const MAGIC: Record<string, Buffer> = {
  'image/png': Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde]),
  ]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
};

function upload(t: TestHost, bytes: Buffer, filename: string, type: string, fields: Record<string, string> = {}) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  data.append('file', new Blob([bytes], { type }), filename);
  return t.request<Body>('POST', '/media', { namespace: 'wp/v2', body: data });
}

for (const store of testStores('cms-media handler')) {
  const test = suite<{ t: TestHost; ids: number[] }>(`cms-media handler (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.ids = [];
    for (const [name, type, alt] of [
      ['a.png', 'image/png', 'First'],
      ['b.txt', 'text/plain', ''],
      ['c.jpg', 'image/jpeg', 'Third'],
    ] as const) {
      const res = await upload(ctx.t, Buffer.concat([MAGIC[type] ?? Buffer.alloc(0), Buffer.from(`bytes of ${name}`)]), name, type, {
        alt_text: alt,
        caption: `Caption ${name}`,
      });
      assert.is(res.status, 201, JSON.stringify(res.body));
      ctx.ids.push(res.body.id);
    }
  });
  test.after(async (ctx) => ctx.t.stop());

  const run = async (t: TestHost, settings: Record<string, unknown>) => {
    const handler = (await t.host.services.get(services.handlerCatalogue, 'test')).handler('cms-media');
    if (!handler) throw new Error('no cms-media handler');
    return runHandler(handler, settings, { content: t.host.content });
  };

  test('every media item, newest first, with its fields and identity', async ({ t, ids }) => {
    const packets = await run(t, {});
    assert.is(packets.length, 3);
    assert.equal(
      packets.map((p) => p.metadata.item_id),
      [...ids].reverse().map((id) => `media:${id}`),
    );
    const first = packets.find((p) => p.data.media_id === ids[0])!;
    assert.is(first.data.title, 'a');
    assert.is(first.data.alt_text, 'First');
    assert.is(first.data.caption, 'Caption a.png');
    assert.is(first.data.mime_type, 'image/png');
    assert.is(first.data.source_url, `${t.url}/flowhost-media/${ids[0]}/a.png`);
    const served = await fetch(String(first.data.source_url));
    assert.equal(Buffer.from(await served.arrayBuffer()), Buffer.concat([MAGIC['image/png']!, Buffer.from('bytes of a.png')]));
  });

  test('a MIME family, an exact type, and the candidate cap', async ({ t, ids }) => {
    assert.equal(
      (await run(t, { mime_type: 'image/' })).map((p) => p.data.media_id),
      [ids[2], ids[0]],
    );
    assert.equal(
      (await run(t, { mime_type: 'text/plain' })).map((p) => p.data.media_id),
      [ids[1]],
    );
    assert.is((await run(t, { max_candidates: 1 })).length, 1);
  });

  test('a deleted item is no longer a candidate', async ({ t, ids }) => {
    await t.request('DELETE', `/media/${ids[1]}`, { namespace: 'wp/v2', query: { force: true } });
    assert.is((await run(t, {})).length, 2);
  });

  test.run();
}
