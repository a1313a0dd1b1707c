import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeRegExp, nextFreeSlug, slugFamilyCondition, slugify } from '../../../core/content/slug.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';

const test = suite('content slugs');

test('slugify folds accents, joins words with single hyphens, trims', () => {
  assert.is(slugify('  Crème Brûlée — the RECIPE!! '), 'creme-brulee-the-recipe');
  assert.is(slugify('a__b..c'), 'a-b-c');
  assert.is(slugify('日本語'), '');
  assert.is(slugify('abc def', 4), 'abc', 'no hyphen left at the cut');
});

test('nextFreeSlug takes the base, else the first free number from 2', () => {
  assert.is(nextFreeSlug('a', []), 'a');
  assert.is(nextFreeSlug('a', ['a']), 'a-2');
  assert.is(nextFreeSlug('a', ['a', 'a-2', 'a-4']), 'a-3');
});

test('escapeRegExp makes every special character literal', () => {
  const text = 'a.b*c+d?(e)[f]{g}|h^i$j\\k';
  assert.ok(new RegExp(`^${escapeRegExp(text)}$`).test(text));
  assert.not.ok(new RegExp(escapeRegExp('a.b')).test('axb'));
});

test('a slug family is looked up through the (post_type, slug) index, and holds only the family', async () => {
  const store = await openEmbeddedStore({ file: ':memory:' });
  try {
    const posts = store.collection<{ post_type: string; slug: string }>('posts');
    await posts.createIndex({ fields: { post_type: 1, slug: 1 }, unique: true });
    const slugs = ['news', 'news-2', 'news-10', 'news-x', 'news-2-3', 'newsy', 'news ', 'new', 'news.', 'newt', 'news-'];
    for (const slug of slugs) await posts.insertOne({ post_type: 'post', slug });
    await posts.insertOne({ post_type: 'page', slug: 'news-3' });
    const filter = { post_type: 'post', slug: slugFamilyCondition('news') };
    const found = (await posts.find(filter)).map((p) => p.slug).sort();
    assert.equal(found, ['news', 'news-10', 'news-2']);
    assert.is(nextFreeSlug('news', found), 'news-3');
    const plan = store.explainFind('posts', filter).join(' | ');
    assert.match(plan, /SEARCH \S+ USING INDEX \S+ \(<expr>=\? AND <expr>>\? AND <expr><\?\)/, plan);
  } finally {
    await store.close();
  }
});

test.run();
