/**
 * What each console page needs, taken from the REST routes it calls: the core namespace's
 * routes need `manage_options` (logs: `view_logs`), the posts page reads wp/v2's edit
 * context (`edit_posts`). The navigation shows only the pages the signed-in user's
 * capabilities (wp/v2 `users/me`, edit context) open, and a page they cannot open names
 * what it needs instead of failing call by call. No DOM here: a test compares it with the
 * server's roles.
 */
export interface Section {
  path: string;
  label: string;
  capability: string;
}

export const SECTIONS: readonly Section[] = [
  { path: 'flows', label: 'Flows', capability: 'manage_options' },
  { path: 'pipelines', label: 'Pipelines', capability: 'manage_options' },
  { path: 'jobs', label: 'Runs', capability: 'manage_options' },
  { path: 'review', label: 'Review', capability: 'manage_options' },
  { path: 'logs', label: 'Logs', capability: 'view_logs' },
  { path: 'posts', label: 'Posts', capability: 'edit_posts' },
  { path: 'users', label: 'Users', capability: 'manage_options' },
  { path: 'credentials', label: 'Credentials', capability: 'manage_options' },
  { path: 'chat', label: 'Chat', capability: 'manage_options' },
  { path: 'providers', label: 'AI providers', capability: 'manage_options' },
  { path: 'plugins', label: 'Plugins', capability: 'manage_options' },
  { path: 'settings', label: 'Settings', capability: 'manage_options' },
];

export type Capabilities = Record<string, boolean>;

/**
 * Which of the pages' capabilities each role holds (core/users/roles.ts; a test holds the
 * two together). `view_logs` may also be granted to a user of any role.
 */
export const ROLE_CAPABILITIES: Readonly<Record<string, readonly string[]>> = {
  administrator: ['manage_options', 'view_logs', 'edit_posts'],
  editor: ['edit_posts'],
  author: ['edit_posts'],
  contributor: ['edit_posts'],
  subscriber: [],
};
export const ROLES = Object.keys(ROLE_CAPABILITIES);
const GRANTABLE = ['view_logs'];

export function allowedSections(capabilities: Capabilities): Section[] {
  return SECTIONS.filter((section) => capabilities[section.capability] === true);
}

export function sectionOf(path: string): Section | undefined {
  return SECTIONS.find((section) => section.path === path);
}

/** The roles that hold a capability, in words: "administrators", "administrators and editors". */
export function rolesWith(capability: string): string {
  const roles = ROLES.filter((role) => ROLE_CAPABILITIES[role]!.includes(capability)).map((role) => `${role}s`);
  return roles.length > 1 ? `${roles.slice(0, -1).join(', ')} and ${roles.at(-1)}` : (roles[0] ?? 'no role');
}

/** Why a page is refused, naming the capability and who has it. */
export function refusal(section: Section, role: string): string {
  const grant = GRANTABLE.includes(section.capability) ? ', or a user an administrator granted it to' : '';
  return `${section.label} needs the ${section.capability} capability, which your account (${role}) does not have. It is held by ${rolesWith(section.capability)}${grant}.`;
}

/** What a role opens in the console, for the form that creates users. */
export function roleOpens(role: string): string {
  const labels = SECTIONS.filter((section) => (ROLE_CAPABILITIES[role] ?? []).includes(section.capability)).map((s) => s.label);
  if (labels.length === SECTIONS.length) return 'the whole console';
  if (labels.length === 0) return 'no page of the console (only their own password)';
  return `${labels.join(', ')} only`;
}
