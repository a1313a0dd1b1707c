// The forum handler on both stores against a fake forum API: OAuth 2.0 with HTTP Basic
// client authentication, two pages of new posts, each post fetched once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { startFakeForum, type FakeForum } from '../../support/fake-forum.js';
import { authorizeInPopup } from '../../support/oauth-popup.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('forum: end to end')) {
  const test = suite<{ t: TestHost; fake: FakeForum }>(`forum: end to end (${store.label})`);
  test.before(async (ctx) => {
    ctx.fake = await startFakeForum();
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: { forum: { api_url: ctx.fake.server.url, auth_url: ctx.fake.server.url } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.fake.server.close();
  });

  test('connects with the browser authorization, then reads two pages of new posts, each once', async ({ t, fake }) => {
    await t.request('PUT', '/auth/forum', { body: { client_id: fake.app.id, client_secret: fake.app.secret } });
    const done = await authorizeInPopup(t, 'forum');
    assert.match(done.html, /Connected Forum account ada_reads/, done.html + JSON.stringify(fake.refusals));
    const status = await t.request<Body>('GET', '/auth/forum/status');
    assert.equal(status.body.data.account_details, { username: 'ada_reads', id: 'u123' });
    const steps = { steps: [{ type: 'fetch', handler_slug: 'forum', handler_config: { community: 'news', pages: 2, max_items: 10 } }] };
    const first = await t.executeAndWait({ workflow: steps });
    assert.is(first.status, 'completed', JSON.stringify(first));
    assert.is((first.steps as Array<{ items_out: number }>)[0]!.items_out, 3);
    assert.is(fake.listings, 2, 'followed after to the second page');
    assert.equal(fake.refusals, []);
  });

  test.run();
}
