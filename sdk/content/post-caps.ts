/**
 * Per-post rights, as WordPress's map_meta_cap() turns `read_post`, `edit_post` and
 * `delete_post` into role capabilities (wp-includes/capabilities.php): one's own posts
 * need `edit_posts` (`edit_published_posts` once published), anyone else's need
 * `edit_others_posts` plus `edit_published_posts` or `edit_private_posts` by status; the
 * same with `delete_`. A post without an author is someone else's. One set of
 * capabilities serves every post type (WordPress gives pages their own; this host does not).
 */
import type { Principal } from '../kernel/principal.js';
import type { Post } from './model.js';

/** Whoever asks: a request's principal, an acting user's snapshot, or nobody (null). */
export type PostReader = Pick<Principal, 'userId' | 'can'> | null;
type User = PostReader;

const isOwn = (post: Post, user: NonNullable<User>) => post.author_id !== null && post.author_id === user.userId;

/** The status that decides the rights: a trashed post's rights are those of its status before the trash. */
function effectiveStatus(post: Post): string {
  if (post.status !== 'trash') return post.status;
  return String(post.meta._wp_trash_meta_status ?? 'draft');
}

function mayChange(post: Post, user: User, verb: 'edit' | 'delete'): boolean {
  if (!user) return false;
  const status = effectiveStatus(post);
  if (isOwn(post, user)) return user.can(status === 'publish' ? `${verb}_published_posts` : `${verb}_posts`);
  if (!user.can(`${verb}_others_posts`)) return false;
  if (status === 'publish') return user.can(`${verb}_published_posts`);
  if (status === 'private') return user.can(`${verb}_private_posts`);
  return true;
}

/** WordPress's `edit_post` meta capability. */
export function canEditPost(post: Post, user: User): boolean {
  return mayChange(post, user, 'edit');
}

/** WordPress's `delete_post` meta capability. */
export function canDeletePost(post: Post, user: User): boolean {
  return mayChange(post, user, 'delete');
}

/**
 * WordPress's `read_post`, as WP_REST_Posts_Controller::check_read_permission applies it
 * (the post type's own visibility is the caller's business): published posts are anyone's;
 * private ones their author's and `read_private_posts`; drafts, pending and trashed posts
 * whoever may edit them.
 */
export function canReadPost(post: Post, user: User): boolean {
  if (post.status === 'publish') return true;
  if (!user) return false;
  if (post.status === 'private') return isOwn(post, user) || user.can('read_private_posts');
  return canEditPost(post, user);
}

/** Whether a user may see every post of every status (the lists then need no per-post filter). */
export function readsEverything(user: User): boolean {
  return (
    !!user &&
    user.can('edit_others_posts') &&
    user.can('read_private_posts') &&
    user.can('edit_published_posts') &&
    user.can('edit_private_posts')
  );
}
