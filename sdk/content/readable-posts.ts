/**
 * A post query answered for a reader: only the posts WordPress's read_post lets them see
 * (post-caps.ts), with a total that counts only those. Plugins that list or search posts
 * for a user (chat tools, their own routes) use this rather than a role capability, so
 * they show no more than wp/v2 does.
 */
import type { ContentStore, Post, PostQuery } from './model.js';
import { DEFAULT_PER_PAGE } from './post-query.js';
import { canReadPost, readsEverything, type PostReader } from './post-caps.js';

const CHUNK = 100;

/**
 * `content.findPosts(query)` less what `user` may not read. Published posts are anyone's,
 * so a query for published posts only, or a reader who reads everything, goes straight to
 * the store; otherwise the whole match is read in chunks and filtered (as wp/v2's lists
 * do), keeping the query's order, and `per_page`/`offset` apply to what is left. Whether
 * the post type itself is readable is the caller's business.
 */
export async function findReadablePosts(
  content: Pick<ContentStore, 'findPosts'>,
  query: PostQuery,
  user: PostReader,
): Promise<{ items: Post[]; total: number }> {
  const statuses = query.status === undefined ? null : [query.status].flat();
  if (readsEverything(user) || statuses?.every((s) => s === 'publish')) return content.findPosts(query);
  const { per_page: perPage = DEFAULT_PER_PAGE, offset = 0, ...whole } = query;
  const readable: Post[] = [];
  for (let at = 0; ; at += CHUNK) {
    const chunk = await content.findPosts({ ...whole, per_page: CHUNK, offset: at });
    readable.push(...chunk.items.filter((post) => canReadPost(post, user)));
    if (chunk.items.length < CHUNK || at + CHUNK >= chunk.total) break;
  }
  return { items: readable.slice(offset, offset + perPage), total: readable.length };
}
