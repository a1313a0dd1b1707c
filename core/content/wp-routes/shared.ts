/**
 * What every wp/v2 route group shares: the dependencies, the registered post types and
 * taxonomies as the host compiled them, the API base URL, and WordPress's read check.
 */
import type { PostTypeDefinition, TaxonomyDefinition } from '../../kernel/contributions.js';
import type { Principal } from '../../kernel/principal.js';
import type { Post } from '../model.js';
import { canReadPost } from '../post-caps.js';
import type { WpUsersDeps } from '../wp-users.js';
import type { WpDeps } from '../wp-routes.js';
import { WP_NAMESPACE } from './namespace.js';

export abstract class WpShared {
  protected readonly types: readonly PostTypeDefinition[];
  protected readonly taxonomies: readonly TaxonomyDefinition[];

  constructor(protected readonly deps: WpDeps) {
    this.types = deps.contentTypes.postTypes();
    this.taxonomies = deps.contentTypes.taxonomies();
  }

  /** The taxonomies a post type carries: named by either side. */
  protected taxonomiesOf(type: PostTypeDefinition): TaxonomyDefinition[] {
    return this.taxonomies.filter((t) => t.post_types.includes(type.name) || (type.taxonomies ?? []).includes(t.name));
  }

  protected typesOf(taxonomy: TaxonomyDefinition): string[] {
    return this.types.filter((type) => this.taxonomiesOf(type).includes(taxonomy)).map((type) => type.name);
  }

  protected get usersDeps(): WpUsersDeps {
    return {
      users: this.deps.users,
      content: this.deps.content,
      publicTypes: () => this.types.filter((t) => t.public !== false),
      siteUrl: () => this.deps.hostInfo.publicUrl(),
      apiBase: () => this.base,
    };
  }

  protected get base(): string {
    return `${this.deps.hostInfo.publicUrl()}${this.deps.hostInfo.apiPrefix}/${WP_NAMESPACE}`;
  }

  // ---- /types and /taxonomies ----

  /**
   * Who may read a post (WordPress's check_read_permission): a type that is not public
   * is for those who may edit posts; within it, the post's own rights (post-caps.ts).
   */
  protected canRead(type: PostTypeDefinition, post: Post, user: Principal | null): boolean {
    if (type.public === false && !user?.can('edit_posts')) return false;
    return canReadPost(post, user);
  }
}
