/** Checks made inside routes: who may see what is not published, change a post, or create terms. */
import { canDeletePost, canEditPost, canReadPost, type Post, type PostStatus, type Principal, apiError } from '../../sdk/index.js';

/** 401 for nobody, 403 for a user without the capability (the host's own codes). */
export function requireCapability(user: Principal | null, capability: string, what: string): void {
  if (!user) throw apiError('rest_forbidden', { message: `Sorry, you must be logged in to ${what}.`, user });
  if (!user.can(capability)) throw apiError('rest_forbidden', { message: `Sorry, you are not allowed to ${what}.`, user });
}

/**
 * WordPress's read_post, as wp/v2 answers for the same post: published documentation is
 * anyone's; a draft is for whoever may edit it (an author: their own), a private post for
 * its author and editors.
 */
export function requireReadable(user: Principal | null, post: Post): void {
  if (canReadPost(post, user)) return;
  if (!user) throw apiError('rest_forbidden', { message: 'Sorry, you must be logged in to read this documentation post.', user });
  throw apiError('rest_forbidden', { message: 'Sorry, you are not allowed to read this documentation post.', user });
}

/** WordPress's edit_post: an author changes only their own documentation, editors anyone's. */
export function requireEditable(user: Principal | null, post: Post): void {
  if (!canEditPost(post, user)) throw apiError('rest_cannot_edit', { user });
}

/** WordPress's delete_post, as wp/v2 decides for the same post: an author deletes only their own. */
export function requireDeletable(user: Principal | null, post: Post): void {
  if (!canDeletePost(post, user)) throw apiError('rest_cannot_delete', { user });
}

/** WordPress's handle_status_param: publishing, privately too, needs publish_posts (contributors lack it). */
export function requirePublishRight(user: Principal | null, status: PostStatus | undefined): void {
  if ((status === 'publish' || status === 'private') && !user?.can('publish_posts')) {
    const what = status === 'private' ? 'create private posts' : 'publish posts';
    throw apiError('rest_cannot_publish', { message: `Sorry, you are not allowed to ${what} in this post type.`, user });
  }
}

/**
 * Creating project terms: manage_categories, whichever route asks (/project/resolve with
 * create_missing, a /docs project_path, a /sync/doc subpath), as wp/v2's POST /project.
 * `segment`: the first term of the path that does not exist.
 */
export function requireTermCreation(user: Principal | null, segment?: string): void {
  if (user?.can('manage_categories')) return;
  const which = segment === undefined ? '' : ` ('${segment.slice(0, 200)}' does not exist)`;
  const message = user
    ? `Sorry, you are not allowed to create project terms${which}: that needs manage_categories.`
    : `Sorry, you must be logged in to create project terms${which}.`;
  throw apiError('rest_forbidden', { message, user });
}
