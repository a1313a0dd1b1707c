import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeRegExp, nextFreeSlug, slugify } from '../../../core/content/slug.js';

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

test.run();
