// The default build lists the rss and cms handlers with the spec's step types and no auth.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';

type Handlers = { success: boolean; data: Record<string, { type: string; requires_auth: boolean; class: string }> };
const test = suite<{ t: TestHost }>('built-in rss and cms handlers in GET /handlers');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
});
test.after(async (ctx) => ctx.t.stop());

test('rss, cms, cms-local and cms-update are listed with their step types', async ({ t }) => {
  const res = await t.request<Handlers>('GET', '/handlers');
  assert.is(res.status, 200);
  const pick = (slug: string) => {
    const h = res.body.data[slug];
    assert.ok(h, `${slug} is listed`);
    return { type: h.type, requires_auth: h.requires_auth, class: h.class };
  };
  assert.equal(pick('rss'), { type: 'fetch', requires_auth: false, class: 'rss/rss' });
  assert.equal(pick('cms'), { type: 'publish', requires_auth: false, class: 'cms/cms' });
  assert.equal(pick('cms-local'), { type: 'fetch', requires_auth: false, class: 'cms/cms-local' });
  assert.equal(pick('cms-update'), { type: 'update', requires_auth: false, class: 'cms/cms-update' });
});

test('GET /handlers/rss shows the feed settings', async ({ t }) => {
  const res = await t.request<{ data: { settings: Record<string, { type: string; default: unknown }> } }>('GET', '/handlers/rss');
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body.data.settings), ['feed_url', 'max_items']);
  assert.is(res.body.data.settings.max_items!.default, 1);
});

test.run();
