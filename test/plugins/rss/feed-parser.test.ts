import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FeedParseError, parseFeed } from '../../../plugins/rss/feed-parser.js';
import { ATOM, RSS2 } from './fixtures.js';

const test = suite('rss: feed parser');

test('RSS 2.0: full content, dates as ISO, authors, guids, newest first', () => {
  const items = parseFeed(RSS2);
  assert.equal(
    items.map((i) => i.title),
    ['2026', 'Older & wiser', 'No date, no guid'],
  );
  assert.equal(items[0], {
    title: '2026',
    content: '<p>Full <b>content</b> here</p>',
    link: 'https://blog.example.org/newest',
    published_at: '2026-03-03T08:30:00.000Z',
    author: 'Ann Author',
    guid: 'https://blog.example.org/newest',
  });
  assert.is(items[1]!.content, '<p>Short summary</p>', 'the description when there is no full content');
  assert.is(items[1]!.guid, 'tag:blog.example.org,2026:older');
  assert.is(items[1]!.author, 'editor@example.org (Ed Itor)');
  assert.is(items[2]!.published_at, null);
  assert.is(items[2]!.guid, '');
});

test('Atom: alternate link resolved against the feed, content over summary, updated as fallback date', () => {
  const items = parseFeed(ATOM, 'https://atom.example.org/feed.xml');
  assert.equal(
    items.map((i) => i.guid),
    ['urn:uuid:entry-2', 'urn:uuid:entry-1'],
  );
  assert.equal(items[1], {
    title: 'First <em>entry</em>',
    content: 'Summary one',
    link: 'https://atom.example.org/posts/first',
    published_at: '2026-03-01T10:00:00.000Z',
    author: 'Zed Writer',
    guid: 'urn:uuid:entry-1',
  });
  assert.is(items[0]!.content, '<p>Body two</p>');
  assert.is(items[0]!.published_at, '2026-03-04T08:00:00.000Z');
  assert.is(items[0]!.author, '');
});

test('an empty channel is no items', () => {
  assert.equal(parseFeed('<rss version="2.0"><channel><title>t</title></channel></rss>'), []);
  assert.equal(parseFeed('<feed xmlns="http://www.w3.org/2005/Atom"></feed>'), []);
});

test('malformed XML and non-feed documents throw FeedParseError', () => {
  for (const [xml, pattern] of [
    ['<rss><channel><item><title>x</item></channel></rss>', /well-formed/],
    ['not xml at all', /well-formed|not an RSS/],
    ['<html><body>Hello</body></html>', /root element: html/],
  ] as const) {
    try {
      parseFeed(xml);
      assert.unreachable(`parsed: ${xml}`);
    } catch (error) {
      assert.instance(error, FeedParseError);
      assert.match((error as Error).message, pattern);
    }
  }
});

test.run();
