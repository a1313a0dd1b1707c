import { fetchHonouringRetryAfter, type DataPacket, type HandlerContext } from '../../sdk/index.js';

export interface ForumFetchSettings {
  community: string;
  /** Pages of `limit` posts to read, newest first (the listing is paginated by `after`). */
  pages?: number;
}

interface Listing {
  data?: { after?: string | null; children?: Array<{ data?: Record<string, unknown> }> };
}

const PAGE_SIZE = 25;

/**
 * New posts of a community (Reddit shape: `GET /r/{community}/new` with a bearer token),
 * newest first, following `after` for up to `pages` pages. Identity: the post's full name.
 */
export async function fetchPosts(ctx: HandlerContext, apiUrl: string, settings: ForumFetchSettings): Promise<DataPacket[]> {
  const token = ctx.credentials?.tokens?.access_token;
  if (!token) throw new Error('The forum account is not connected: save its app keys and authorize it (GET /auth/forum/status)');
  const out: DataPacket[] = [];
  let after: string | null | undefined;
  for (let page = 0; page < (settings.pages ?? 1); page++) {
    const url = new URL(`${apiUrl}/r/${encodeURIComponent(settings.community)}/new`);
    url.searchParams.set('limit', String(PAGE_SIZE));
    url.searchParams.set('raw_json', '1');
    if (after) url.searchParams.set('after', after);
    const response = await fetchHonouringRetryAfter(
      ctx.fetch,
      url.toString(),
      { headers: { Authorization: `Bearer ${token}`, 'User-Agent': 'Flowhost/1.0 (content workflows)' } },
      'The forum',
    );
    if (response.status === 401) {
      await ctx.credentials?.markFailed('invalid_token', `The forum refused the access token (HTTP 401)`);
      throw new Error('The forum refused the access token (HTTP 401)');
    }
    if (!response.ok) throw new Error(`The forum answered HTTP ${response.status}`);
    const listing = response.json<Listing>();
    for (const child of listing.data?.children ?? []) {
      const post = child.data ?? {};
      const name = String(post.name ?? `t3_${String(post.id ?? '')}`);
      out.push({
        type: 'forum_post',
        data: {
          title: String(post.title ?? ''),
          content: String(post.selftext ?? ''),
          link: String(post.url ?? ''),
          author: String(post.author ?? ''),
          permalink: `https://www.reddit.com${String(post.permalink ?? '')}`,
        },
        metadata: {
          item_id: name,
          source_url: `https://www.reddit.com${String(post.permalink ?? '')}`,
          created_utc: post.created_utc ?? null,
        },
      });
    }
    after = listing.data?.after;
    if (!after) break;
  }
  return out;
}
