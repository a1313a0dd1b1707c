/** The `cms-local` fetch handler: this site's own posts as packets, newest first. */
import type { ContentStore, DataPacket, Post } from '../../sdk/index.js';
import type { LocalSettings } from './settings.js';

/** Candidates per run; the engine claims up to max_items of those not yet processed. */
export const CANDIDATES = 50;

export function postPacket(post: Post): DataPacket {
  return {
    type: 'post',
    data: {
      post_id: post.post_id,
      title: post.title,
      content: post.content,
      excerpt: post.excerpt,
      slug: post.slug,
      post_type: post.post_type,
      status: post.status,
      terms: post.terms,
      published_at: post.published_at?.toISOString() ?? null,
    },
    // item_id is what the engine remembers as processed for this flow step.
    metadata: { item_id: `post:${post.post_id}`, post_id: post.post_id },
  };
}

export async function fetchLocalPosts(content: ContentStore, settings: LocalSettings): Promise<DataPacket[]> {
  const { items } = await content.findPosts({
    post_type: settings.post_type,
    status: settings.post_status,
    ...(settings.search ? { search: settings.search } : {}),
    orderby: 'created_at',
    order: 'desc',
    per_page: CANDIDATES,
  });
  return items.map(postPacket);
}
