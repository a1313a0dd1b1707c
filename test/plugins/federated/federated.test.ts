// The federated handler on both stores against a fake AT Protocol server: the app
// password saved through /auth, a session, a post whose link is a facet at the right
// UTF-8 byte offsets after multi-byte text, 300 graphemes, and a refused password.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { startFakePds, type FakePds } from '../../support/fake-pds.js';
import { testStores } from '../../support/test-stores.js';
import { AMP_LINK, ENTITY_LINK, ENTITY_TEXT, ampText, startEntityFeed } from '../../support/entity-feed.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('federated: end to end')) {
  const test = suite<{ t: TestHost; pds: FakePds; feed: FakeServer }>(`federated: end to end (${store.label})`);
  test.before(async (ctx) => {
    ctx.pds = await startFakePds();
    ctx.feed = await createFakeServer(() => ({
      headers: { 'content-type': 'application/rss+xml' },
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>B</title><item><title>T</title><link>https://blog.example.org/gruesse</link><guid>g1</guid><description>${'Grüße aus Köln 🎉 '.repeat(25)}</description></item></channel></rss>`,
    }));
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: { federated: { service_url: ctx.pds.server.url } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.pds.server.close();
    await ctx.feed.close();
  });

  test('an app password connects at once; a post carries its link as a facet at the byte offsets', async ({ t, pds, feed }) => {
    await t.request('PUT', '/auth/federated', { body: { username: pds.account.handle, app_password: pds.account.password } });
    const status = await t.request<Body>('GET', '/auth/federated/status');
    assert.equal([status.body.data.authenticated, status.body.data.account_details.username], [true, pds.account.handle]);
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${feed.url}/f.xml` } },
          { type: 'publish', handler_slug: 'federated' },
        ],
      },
    });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.equal(pds.refusals, []);
    const record = pds.records[0]!;
    assert.ok([...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(record.text)].length <= 300);
    assert.match(record.text, /… https:\/\/blog\.example\.org\/gruesse$/);
    const facet = record.facets[0]!;
    assert.is(facet.index.byteStart, Buffer.byteLength(record.text) - Buffer.byteLength('https://blog.example.org/gruesse'));
    assert.is(facet.index.byteEnd, Buffer.byteLength(record.text));
  });

  test('HTML in an item is posted as the text a reader sees, counted in graphemes of that text', async ({ t, pds }) => {
    // 60 × "Q&amp;A ": 480 characters escaped (over 300), 239 read (plus the link, it fits).
    const entities = await startEntityFeed(60);
    try {
      const before = pds.records.length;
      const job = await t.executeAndWait({
        workflow: {
          steps: [
            { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${entities.url}/entities.xml`, max_items: 2 } },
            { type: 'publish', handler_slug: 'federated' },
          ],
        },
      });
      assert.is(job.status, 'completed', JSON.stringify(job));
      assert.equal(pds.refusals, []);
      const records = pds.records.slice(before);
      assert.equal(records.map((r) => r.text).sort(), [`${ampText(60)} ${AMP_LINK}`, `${ENTITY_TEXT} ${ENTITY_LINK}`].sort());
      // The facets point at the decoded text's bytes: the in-text link and the item's link.
      const entity = records.find((r) => r.text.startsWith('Tom'))!;
      const uris = entity.facets.map((f) => [
        Buffer.from(entity.text).subarray(f.index.byteStart, f.index.byteEnd).toString(),
        f.features[0]!.uri,
      ]);
      assert.equal(uris, [
        ['https://tv.example.org/show', 'https://tv.example.org/show'],
        [ENTITY_LINK, ENTITY_LINK],
      ]);
    } finally {
      await entities.close();
    }
  });

  test('a refused app password fails the run and marks the account not authenticated', async ({ t, pds, feed }) => {
    const posted = pds.records.length;
    await t.request('PUT', '/auth/federated', { body: { handle: pds.account.handle, password: 'wrong-pass-word-xxxx' } });
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${feed.url}/f.xml` } },
          { type: 'publish', handler_slug: 'federated' },
        ],
      },
    });
    assert.is(job.status, 'failed');
    assert.match(String(job.error), /refused the app password/);
    const status = await t.request<Body>('GET', '/auth/federated/status');
    assert.equal(
      [status.body.data.authenticated, status.body.data.error, status.body.data.error_code],
      [false, true, 'invalid_credentials'],
    );
    assert.is(pds.records.length, posted, 'nothing more was posted');
  });

  test.run();
}
