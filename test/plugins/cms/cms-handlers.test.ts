// The three cms behaviours on a real content store (embedded, in memory), without a host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ContentService } from '../../../core/content/service.js';
import type { DocumentStore } from '../../../core/store/port.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { FakeClock } from '../../../sdk/testing/fake-clock.js';
import type { DataPacket } from '../../../sdk/index.js';
import { publishPosts } from '../../../plugins/cms/publish.js';
import { fetchLocalPosts } from '../../../plugins/cms/local.js';
import { updatePosts } from '../../../plugins/cms/update.js';
import { readLocalSettings, readPublishSettings, readUpdateSettings } from '../../../plugins/cms/settings.js';

interface Ctx {
  store: DocumentStore;
  content: ContentService;
  clock: FakeClock;
}

const feedItem = (n: number, extra: Partial<DataPacket['data']> = {}): DataPacket => ({
  type: 'rss_item',
  data: { title: `Item ${n}`, content: `<p>Body ${n}</p>`, link: `https://news.example.org/${n}`, ...extra },
  metadata: { item_id: `guid-${n}`, source_url: `https://news.example.org/${n}` },
});

const test = suite<Ctx>('cms handlers');
test.before.each(async (ctx) => {
  ctx.store = await openEmbeddedStore({ file: ':memory:' });
  ctx.clock = new FakeClock('2026-04-01T12:00:00.000Z');
  ctx.content = new ContentService(ctx.store, ctx.clock);
  await ctx.content.init();
});
test.after.each(async (ctx) => ctx.store.close());

test('cms: one draft post per packet with the source linked, by default', async ({ content, clock }) => {
  const out = await publishPosts(content, readPublishSettings({}), [feedItem(1), feedItem(2)], clock.now());
  assert.is(out.length, 2);
  const post = (await content.getPost(out[0]!.metadata.post_id as number))!;
  assert.is(post.status, 'draft');
  assert.is(post.post_type, 'post');
  assert.is(post.title, 'Item 1');
  assert.is(post.content, '<p>Body 1</p>\n\n<p>Source: <a href="https://news.example.org/1">https://news.example.org/1</a></p>');
  assert.equal(post.meta, { source_url: 'https://news.example.org/1', source_item_id: 'guid-1' });
  assert.equal(out[0], {
    type: 'cms_post',
    data: { post_id: post.post_id, title: 'Item 1', slug: 'item-1', status: 'draft' },
    // published_id: what the run's outcome lists as published (with a link when the plugin gives one).
    metadata: { post_id: post.post_id, source_item_id: 'guid-1', published_id: String(post.post_id) },
  });
});

test('cms: settings choose type, status, terms; include_source false leaves content as is', async ({ content, clock }) => {
  const settings = readPublishSettings({
    post_type: 'news',
    post_status: 'publish',
    taxonomy: 'category',
    terms: 'World, Tech ,World',
    include_source: false,
  });
  const [packet] = await publishPosts(content, settings, [feedItem(3)], clock.now());
  const post = (await content.getPost(packet!.data.post_id as number))!;
  assert.is(post.post_type, 'news');
  assert.is(post.status, 'publish');
  assert.equal(post.published_at, clock.now());
  assert.is(post.content, '<p>Body 3</p>');
  const names = await Promise.all(post.terms.category!.map(async (id) => (await content.getTerm('category', id))!.name));
  assert.equal(names, ['World', 'Tech']);
});

test('cms: titles are the text a reader sees: entities decoded, markup and scripts gone', async ({ content, clock }) => {
  const packets: DataPacket[] = [
    feedItem(4, { title: 'Tom &amp; Jerry&#8217;s <em>big</em>\n &mdash; 5 &lt; 6<script>alert(1)</script>' }),
    { type: 'x', data: { content: '<style>p { color: red }</style><p>Caf&eacute; &amp; bar</p>\n<p>opens&nbsp;today</p>' }, metadata: {} },
  ];
  const out = await publishPosts(content, readPublishSettings({}), packets, clock.now());
  const titles = await Promise.all(out.map(async (p) => (await content.getPost(p.data.post_id as number))!.title));
  assert.equal(titles, ['Tom & Jerry’s big — 5 < 6', 'Café & bar opens today']);
  assert.is(out[0]!.data.title, 'Tom & Jerry’s big — 5 < 6');
  const [updated] = await updatePosts(content, readUpdateSettings({}), [
    { type: 'post', data: { title: '<b>Q&amp;A</b> &ndash; live<style>b{}</style>' }, metadata: { post_id: out[1]!.data.post_id } },
  ]);
  assert.is((await content.getPost(updated!.data.post_id as number))!.title, 'Q&A – live');
});

test('cms: a title from the text when there is none; unsafe source links are not linked', async ({ content, clock }) => {
  const packets: DataPacket[] = [
    {
      type: 'x',
      data: { content: '<p>An <b>AI</b> written paragraph that is long enough to be cut somewhere before the end of it all.</p>' },
      metadata: { source_url: 'javascript:alert(1)' },
    },
    { type: 'x', data: {}, metadata: {} },
  ];
  const out = await publishPosts(content, readPublishSettings({}), packets, clock.now());
  const first = (await content.getPost(out[0]!.data.post_id as number))!;
  assert.ok(first.title.startsWith('An AI written paragraph'));
  assert.ok(first.title.length <= 80 && first.title.endsWith('…'));
  assert.not.match(first.content, 'javascript:');
  assert.is((await content.getPost(out[1]!.data.post_id as number))!.title, 'Untitled 2026-04-01');
});

test('cms-local: posts of the type and status, newest first, identified as post:<id>', async ({ content, clock }) => {
  const ids: number[] = [];
  for (const [title, status] of [
    ['Old', 'publish'],
    ['Draft', 'draft'],
    ['New', 'publish'],
  ] as const) {
    clock.advance(1000);
    ids.push((await content.createPost({ title, status, content: `${title} body` })).post_id);
  }
  await content.createPost({ title: 'A page', status: 'publish', post_type: 'page' });

  const packets = await fetchLocalPosts(content, readLocalSettings({}));
  assert.equal(
    packets.map((p) => p.data.title),
    ['New', 'Old'],
  );
  assert.equal(packets[0]!.metadata, { item_id: `post:${ids[2]}`, post_id: ids[2] });
  assert.is(packets[0]!.type, 'post');
  assert.is(packets[0]!.data.content, 'New body');

  assert.equal(
    (await fetchLocalPosts(content, readLocalSettings({ post_status: 'draft' }))).map((p) => p.data.title),
    ['Draft'],
  );
  assert.equal(
    (await fetchLocalPosts(content, readLocalSettings({ search: 'OLD B' }))).map((p) => p.data.title),
    ['Old'],
  );
  assert.equal(
    (await fetchLocalPosts(content, readLocalSettings({ post_type: 'page' }))).map((p) => p.data.title),
    ['A page'],
  );
});

test('cms-update: replaces or appends content and sets the title; skips packets naming no post', async ({ content }) => {
  const post = await content.createPost({ title: 'Before', content: 'old text' });
  const rewritten: DataPacket = {
    type: 'post',
    data: { title: 'After', content: 'new text' },
    metadata: { item_id: `post:${post.post_id}`, post_id: post.post_id },
  };

  const out = await updatePosts(content, readUpdateSettings({}), [rewritten, { type: 'x', data: { content: 'stray' }, metadata: {} }]);
  assert.equal(out, [
    {
      type: 'cms_post',
      data: { post_id: post.post_id, title: 'After', updated: true },
      metadata: { item_id: `post:${post.post_id}`, post_id: post.post_id },
    },
  ]);
  assert.is((await content.getPost(post.post_id))!.content, 'new text');

  await updatePosts(
    content,
    readUpdateSettings({ mode: 'append', update_title: false }),
    [{ type: 'post', data: { title: 'Ignored', content: 'more' }, metadata: {}, ...{} } as DataPacket].map((p) => ({
      ...p,
      data: { ...p.data, post_id: String(post.post_id) },
    })),
  );
  const after = (await content.getPost(post.post_id))!;
  assert.is(after.content, 'new text\n\nmore');
  assert.is(after.title, 'After');
});

test('cms-update: nothing to change reports updated false; a deleted post fails the step', async ({ content }) => {
  const post = await content.createPost({ title: 'Same', content: 'same' });
  const [same] = await updatePosts(content, readUpdateSettings({}), [
    { type: 'post', data: { title: 'Same' }, metadata: { post_id: post.post_id } },
  ]);
  assert.is(same!.data.updated, false);
  await content.deletePost(post.post_id);
  try {
    await updatePosts(content, readUpdateSettings({}), [{ type: 'post', data: { content: 'x' }, metadata: { post_id: post.post_id } }]);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, `post ${post.post_id} does not exist`);
  }
});

test.run();
