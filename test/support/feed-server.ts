// An RSS feed on 127.0.0.1 for flows under test: the items as RSS 2.0, the same answer to
// every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FeedItem {
  guid: string;
  title: string;
}

/** RSS 2.0 with one <item> per entry; each body reads "Body of <title>". */
export function rssXml(items: FeedItem[]): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://feed.test/</link><description>t</description>${items
    .map(
      (i) =>
        `<item><title>${i.title}</title><link>http://feed.test/${i.guid}</link><guid>${i.guid}</guid><description>Body of ${i.title}</description></item>`,
    )
    .join('')}</channel></rss>`;
}

export interface FeedServer {
  /** http://127.0.0.1:<port>/feed.xml */
  readonly url: string;
  close(): Promise<void>;
}

export async function startFeedServer(items: FeedItem[]): Promise<FeedServer> {
  const server = createServer((_req, res) => {
    // Separate calls: restify (when loaded) patches writeHead to return nothing.
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(rssXml(items));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
