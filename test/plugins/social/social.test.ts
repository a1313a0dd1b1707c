// social and threaded end to end on both stores, against a fake Graph-API service: the
// OAuth 2.0 authorization in a popup, threaded using social's credentials, a token about
// to expire refreshed once, 500 characters as graphemes, and a denied authorization.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { graphemeCount as graphemes } from '../../../sdk/index.js';
import { startFakeGraph, type FakeGraph } from '../../support/fake-graph.js';
import { testStores } from '../../support/test-stores.js';
import { authorizeInPopup } from '../../support/oauth-popup.js';
import { AMP_LINK, ENTITY_LINK, ENTITY_TEXT, ampText, startEntityFeed } from '../../support/entity-feed.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('social: end to end')) {
  const test = suite<{ t: TestHost; fake: FakeGraph; feed: FakeServer }>(`social: end to end (${store.label})`);
  test.before(async (ctx) => {
    ctx.fake = await startFakeGraph();
    const content = 'Grüße aus Köln 🎉 '.repeat(40);
    ctx.feed = await createFakeServer(() => ({
      headers: { 'content-type': 'application/rss+xml' },
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><item><title>Long</title><link>https://blog.example.org/long</link><guid>https://blog.example.org/long</guid><description>${content}</description></item></channel></rss>`,
    }));
    const url = ctx.fake.server.url;
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: { social: { graph_url: url, dialog_url: url, threads_url: `${url}/threads` } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.fake.server.close();
    await ctx.feed.close();
  });

  test('the OAuth 2.0 authorization connects social, and threaded shares it', async ({ t, fake }) => {
    assert.is(
      (await t.request<Body>('PUT', '/auth/threaded', { body: { app_id: fake.app.id, app_secret: fake.app.secret } })).body.message,
      'Configuration saved successfully',
    );
    const done = await authorizeInPopup(t, 'threaded');
    assert.match(done.html, /Connected Social account Ada Page Admin/);
    for (const slug of ['social', 'threaded']) {
      const status = await t.request<Body>('GET', `/auth/${slug}/status`);
      assert.equal(
        [status.body.data.authenticated, status.body.data.account_details],
        [true, { username: 'Ada Page Admin', id: '77' }],
        slug,
      );
    }
    assert.equal(fake.refusals, []);
  });

  test('social posts to the page feed; threaded makes a container and publishes it, shortened to 500', async ({ t, fake, feed }) => {
    const rss = { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${feed.url}/feed.xml` } };
    const social = await t.executeAndWait({
      workflow: { steps: [rss, { type: 'publish', handler_slug: 'social', handler_config: { page_id: 'page1' } }] },
    });
    assert.is(social.status, 'completed', JSON.stringify(social));
    assert.is(fake.feedPosts.length, 1);
    assert.equal([fake.feedPosts[0]!.page, fake.feedPosts[0]!.link], ['page1', 'https://blog.example.org/long']);
    const threaded = await t.executeAndWait({ workflow: { steps: [rss, { type: 'publish', handler_slug: 'threaded' }] } });
    assert.is(threaded.status, 'completed', JSON.stringify(threaded));
    const text = fake.threads[0]!.text;
    assert.ok(graphemes(text) <= 500, String(graphemes(text)));
    assert.match(text, /… https:\/\/blog\.example\.org\/long$/);
    assert.equal(fake.refusals, []);
  });

  test('HTML in an item reaches social and threaded as the text a reader sees, counted on that text', async ({ t, fake }) => {
    // 110 × "Q&amp;A ": 880 characters escaped (over 500), 439 read (plus the link, it fits).
    const entities = await startEntityFeed(110);
    try {
      const rss = { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${entities.url}/entities.xml`, max_items: 2 } };
      const feedBefore = fake.feedPosts.length;
      const social = await t.executeAndWait({
        workflow: { steps: [rss, { type: 'publish', handler_slug: 'social', handler_config: { page_id: 'page1' } }] },
      });
      assert.is(social.status, 'completed', JSON.stringify(social));
      const messages = fake.feedPosts
        .slice(feedBefore)
        .map((p) => [p.message, p.link])
        .sort();
      assert.equal(
        messages,
        [
          [ampText(110), AMP_LINK],
          [ENTITY_TEXT, ENTITY_LINK],
        ].sort(),
      );
      const threadsBefore = fake.threads.length;
      const threaded = await t.executeAndWait({ workflow: { steps: [rss, { type: 'publish', handler_slug: 'threaded' }] } });
      assert.is(threaded.status, 'completed', JSON.stringify(threaded));
      const texts = fake.threads
        .slice(threadsBefore)
        .map((p) => p.text)
        .sort();
      assert.equal(texts, [`${ampText(110)} ${AMP_LINK}`, `${ENTITY_TEXT} ${ENTITY_LINK}`].sort());
      const steps = threaded.steps as Array<{ published?: Array<{ shortened: boolean }> }>;
      assert.equal(
        steps[1]!.published!.map((p) => p.shortened),
        [false, false],
        'neither was shortened',
      );
      assert.equal(fake.refusals, []);
    } finally {
      await entities.close();
    }
  });

  test('a token about to expire is refreshed once before the run uses it', async ({ t, fake }) => {
    t.clock.advance(3600 * 1000);
    const job = await t.executeAndWait({
      workflow: { steps: [{ type: 'publish', handler_slug: 'social', handler_config: { page_id: 'page1' } }] },
    });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is(fake.refreshes, 1);
    const again = await t.executeAndWait({
      workflow: { steps: [{ type: 'publish', handler_slug: 'social', handler_config: { page_id: 'page1' } }] },
    });
    assert.is(again.status, 'completed');
    assert.is(fake.refreshes, 1, 'the fresh token is used, not refreshed again');
    assert.equal(fake.refusals, []);
  });

  test('a denied authorization shows error true', async ({ t, fake }) => {
    fake.denyNext = true;
    const denied = await authorizeInPopup(t, 'social');
    assert.match(denied.html, /denied/);
    const status = await t.request<Body>('GET', '/auth/social/status');
    assert.equal([status.body.data.authenticated, status.body.data.error, status.body.data.error_code], [false, true, 'access_denied']);
  });

  test.run();
}
