// Posts stored before posts had a `date` get one at boot, so date filters find them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ContentService } from '../../../core/content/service.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { FakeClock } from '../../../sdk/testing/fake-clock.js';

const test = suite('content: date backfill');

test('a post without date gets published_at, else created_at; after/before then find it', async () => {
  const store = await openEmbeddedStore({ file: ':memory:' });
  const clock = new FakeClock('2026-11-01T00:00:00.000Z');
  const posts = store.collection('posts');
  const base = {
    post_type: 'post',
    title: 't',
    content: '',
    excerpt: '',
    meta: {},
    terms: {},
    author_id: null,
    parent_id: null,
    updated_at: new Date('2026-01-01T00:00:00Z'),
  };
  await posts.insertOne({
    ...base,
    post_id: 1,
    slug: 'a',
    status: 'publish',
    created_at: new Date('2026-01-01T00:00:00Z'),
    published_at: new Date('2026-02-01T00:00:00Z'),
  });
  await posts.insertOne({
    ...base,
    post_id: 2,
    slug: 'b',
    status: 'draft',
    created_at: new Date('2026-03-01T00:00:00Z'),
    published_at: null,
  });
  const content = new ContentService(store, clock);
  await content.init();
  const dated = await posts.find({}, { sort: { post_id: 1 } });
  assert.equal(
    dated.map((d) => (d.date as Date).toISOString()),
    ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
  );
  const found = await content.findPosts({ after: new Date('2026-01-15T00:00:00Z'), before: new Date('2026-02-15T00:00:00Z') });
  assert.equal(
    found.items.map((p) => p.post_id),
    [1],
  );
  await content.init(); // nothing left to do: a second boot changes nothing
  assert.is(await posts.count({ date: { $exists: false } }), 0);
  await store.close();
});

test.run();
