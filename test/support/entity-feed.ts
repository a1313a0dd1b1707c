// An RSS feed whose items carry HTML the way blogs send it (entities, lists, a link), for
// the publish handlers' suites: what each fake service receives must be the text a reader
// sees, and its length must be counted on that text, not on the markup.
import { createFakeServer, type FakeServer } from '../../sdk/testing/index.js';

export const ENTITY_LINK = 'https://blog.example.org/tom';
export const ENTITY_HTML =
  '<p>Tom &amp; Jerry&#8217;s new show &mdash; 5 &lt; 6</p><ul><li>Cats</li><li>Mice</li></ul><p>More at <a href="https://tv.example.org/show">the channel</a>.</p>';
/** What a reader sees of ENTITY_HTML; a post is this, a space, and ENTITY_LINK. */
export const ENTITY_TEXT = 'Tom & Jerry’s new show — 5 < 6\n\n• Cats\n• Mice\n\nMore at the channel (https://tv.example.org/show).';

export const AMP_LINK = 'https://blog.example.org/qa';
/** `Q&amp;A ` `times` times: four characters more per repetition escaped than read. */
export const ampHtml = (times: number): string => 'Q&amp;A '.repeat(times);
export const ampText = (times: number): string => 'Q&A '.repeat(times).trim();

/** A feed of two items: ENTITY_HTML, and `ampTimes` escaped ampersands that fit only when decoded. */
export async function startEntityFeed(ampTimes: number): Promise<FakeServer> {
  const item = (link: string, html: string) =>
    `<item><title>Item</title><link>${link}</link><guid>${link}</guid><description><![CDATA[${html}]]></description></item>`;
  return createFakeServer(() => ({
    headers: { 'content-type': 'application/rss+xml' },
    body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title>${item(ENTITY_LINK, ENTITY_HTML)}${item(AMP_LINK, ampHtml(ampTimes))}</channel></rss>`,
  }));
}
