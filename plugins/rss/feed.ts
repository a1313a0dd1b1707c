/** The `rss` handler's behaviour: fetch a feed through the guarded fetch, items as packets. */
import { isSecretParameter, type DataPacket, type GuardedFetch } from '../../sdk/index.js';
import { parseFeed, type FeedItem } from './feed-parser.js';

export type RssSettings = {
  feed_url: string;
  /** Enforced by the engine when it claims items; the handler returns every item. */
  max_items?: number;
};

const ACCEPT = 'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';

/**
 * The feed address for messages, logs and items: user-info (a password) left out, and a
 * private feed's secret query parameters (`?token=`) too, as the flow's settings mask them.
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const name of [...parsed.searchParams.keys()]) if (isSecretParameter(name)) parsed.searchParams.delete(name);
    return parsed.href;
  } catch {
    return url;
  }
}

export function itemPacket(item: FeedItem, feedUrl: string): DataPacket {
  return {
    type: 'rss_item',
    data: { ...item },
    metadata: { item_id: item.guid || item.link || null, source_url: item.link || null, feed_url: displayUrl(feedUrl) },
  };
}

export async function fetchFeed(fetch: GuardedFetch, settings: RssSettings): Promise<DataPacket[]> {
  if (typeof settings.feed_url !== 'string' || settings.feed_url.length === 0) throw new Error('rss: feed_url is required');
  const shown = displayUrl(settings.feed_url);
  const response = await fetch(settings.feed_url, { headers: { accept: ACCEPT } });
  if (!response.ok) throw new Error(`Feed ${shown} answered HTTP ${response.status}`);
  let items: FeedItem[];
  try {
    items = parseFeed(response.text(), response.url || settings.feed_url);
  } catch (error) {
    throw new Error(`Feed ${shown} could not be read as RSS or Atom: ${(error as Error).message}`);
  }
  return items.map((item) => itemPacket(item, settings.feed_url));
}
