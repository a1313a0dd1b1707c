/** Capabilities known to the core; plugins may define more (any string). */
export type Capability =
  | 'manage_options'
  | 'edit_posts'
  | 'delete_posts'
  | 'edit_published_posts'
  | 'delete_published_posts'
  | 'publish_posts'
  | 'edit_others_posts'
  | 'delete_others_posts'
  | 'read_private_posts'
  | 'edit_private_posts'
  | 'delete_private_posts'
  | 'unfiltered_html'
  | 'manage_categories'
  | 'view_logs'
  | 'upload_files'
  | (string & {});

/** Who is making a request, once authenticated. */
export interface Principal {
  readonly userId: number;
  readonly login: string;
  readonly role: string;
  readonly capabilities: ReadonlySet<string>;
  /** How the request authenticated. */
  readonly via: 'app_password' | 'cookie' | 'local' | 'test';
  /**
   * Which client acts (`rest`, `cli`, `console`, `chat`, `mcp`, or a plugin's own word):
   * what a flow's or pipeline's revision records. Absent: derived from `via` (a cookie
   * session is the console, anything else the REST API).
   */
  readonly client?: string;
  can(capability: Capability): boolean;
}
