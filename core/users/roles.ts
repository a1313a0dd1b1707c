import type { Capability } from '../kernel/principal.js';

export const ROLES = ['administrator', 'editor', 'author', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

/** Capabilities of each role. Administrators hold every capability, including plugin-defined ones. */
export const roleCapabilities: Record<Role, readonly Capability[]> = {
  administrator: ['manage_options', 'edit_posts', 'delete_posts', 'manage_categories', 'view_logs', 'upload_files'],
  editor: ['edit_posts', 'delete_posts', 'manage_categories', 'upload_files'],
  author: ['edit_posts', 'upload_files'],
  subscriber: [],
};

/** Capabilities that may be granted to a user beyond their role. */
export const GRANTABLE_CAPABILITIES: readonly Capability[] = ['view_logs'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
