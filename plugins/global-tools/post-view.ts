/**
 * What local_search and cms_post_reader share: who may read a post (as the wp/v2 routes
 * decide it), its public link, and its text as plain text.
 */
import { canReadPost, renderContent, type ActingUser, type Post, type ContentTypes, type PostTypeDefinition } from '../../sdk/index.js';
import { htmlToPlain } from './html-text.js';

/**
 * As wp/v2 decides it: a type that is not public is for those who may edit posts; within
 * it, WordPress's read_post (published posts anyone's, private ones their author's and
 * read_private_posts', drafts whoever may edit them: an author only their own).
 */
export function canRead(type: PostTypeDefinition, post: Post, user: ActingUser | null): boolean {
  if (type.public === false && !user?.can('edit_posts')) return false;
  return canReadPost(post, user);
}

/** The registered post types whose posts this caller may read at all. */
export function readableTypes(types: ContentTypes, user: ActingUser | null): PostTypeDefinition[] {
  return types.postTypes().filter((t) => t.public !== false || user?.can('edit_posts'));
}

/** The link wp/v2 gives a post. */
export const linkOf = (publicUrl: string, post: Post): string => `${publicUrl}/?p=${post.post_id}`;

/** The post's content rendered as wp/v2 renders it (markdown too), then as plain text. */
export const contentText = (post: Post): string => htmlToPlain(renderContent(post.content, post.meta.content_format));

/** The written excerpt as text, else the content's first `chars` characters. */
export function excerptText(post: Post, chars = 300): string {
  const written = post.excerpt.trim() ? htmlToPlain(renderContent(post.excerpt, post.meta.content_format)) : '';
  const text = (written || contentText(post)).replace(/\s+/g, ' ').trim();
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}

export const isoDate = (value: Date | string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);
