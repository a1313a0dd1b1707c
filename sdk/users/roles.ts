import type { Capability } from '../kernel/principal.js';

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What every role may do with posts, as WordPress's single-site roles (wp-admin's
 * populate_roles): `edit_posts`/`delete_posts` cover one's own unpublished posts, the
 * `_published_` caps one's own published ones, the `_others_` and `_private_` caps
 * everyone else's. The REST routes turn these into per-post rights (core/content/post-caps.ts).
 */
const CONTRIBUTOR = ['edit_posts', 'delete_posts'] as const;
const AUTHOR = [...CONTRIBUTOR, 'edit_published_posts', 'delete_published_posts', 'publish_posts', 'upload_files'] as const;
const EDITOR = [
  ...AUTHOR,
  'edit_others_posts',
  'delete_others_posts',
  'read_private_posts',
  'edit_private_posts',
  'delete_private_posts',
  'manage_categories',
  // Single site: editors may store any HTML; authors and contributors get kses.
  'unfiltered_html',
] as const;

/** Capabilities of each role. Administrators hold every capability, including plugin-defined ones. */
export const roleCapabilities: Record<Role, readonly Capability[]> = {
  administrator: [...EDITOR, 'manage_options', 'view_logs'],
  editor: EDITOR,
  author: AUTHOR,
  contributor: CONTRIBUTOR,
  subscriber: [],
};

/** Capabilities that may be granted to a user beyond their role. */
export const GRANTABLE_CAPABILITIES: readonly Capability[] = ['view_logs'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
