/**
 * The WordPress-compatible content API, `{prefix}/wp/v2`: one set of routes per
 * registered post type (at its rest_base) and per taxonomy (at its rest_base), plus
 * `/types` and `/taxonomies`. Answers have WordPress's shapes (lists are arrays, items
 * plain objects, X-WP-Total headers); errors keep `{code, message, data: {status}}`.
 *
 * The route list is a function of the registered types (`SurfaceDefinition.routes` as a
 * function), built when the host compiles its routes: a plugin that registers a post
 * type or taxonomy in its setup gets its routes without touching this surface.
 */
import type { HostInfo } from '../kernel/plugin.js';
import type { ContentTypes } from '../../sdk/contract/content-types.js';
import type { RouteDefinition, SurfaceDefinition } from '../kernel/routes.js';
import type { ContentService } from './service.js';
import type { UsersService } from '../users/service.js';
import { wpUserRoutes } from './wp-users.js';
import { WP_NAMESPACE } from './wp-routes/namespace.js';
import { WpPostRoutes } from './wp-routes/posts.js';
import { WpRegistryRoutes } from './wp-routes/registry.js';
import { WpTermRoutes } from './wp-routes/terms.js';

export { WP_NAMESPACE };

export interface WpDeps {
  content: ContentService;
  /** The registered post types and taxonomies (read when the routes are built, at boot). */
  contentTypes: ContentTypes;
  hostInfo: HostInfo;
  users: UsersService;
}

export function wpSurface(deps: WpDeps): SurfaceDefinition {
  return {
    id: 'wp-v2',
    namespace: WP_NAMESPACE,
    // WordPress clients run on other origins too (a headless front end, a block editor).
    rest: 'wordpress',
    // Called once at boot, after every plugin's setup: the types are complete.
    routes: () => new WpRoutes(deps).all(),
  };
}

/** Every wp/v2 route: the registry, then each post type's and each taxonomy's, then users. */
class WpRoutes {
  constructor(private readonly deps: WpDeps) {}

  all(): RouteDefinition[] {
    const posts = new WpPostRoutes(this.deps);
    const terms = new WpTermRoutes(this.deps);
    return [
      ...new WpRegistryRoutes(this.deps).routes(),
      ...posts.routes(),
      ...terms.routes(),
      ...wpUserRoutes(posts.users()),
    ] as RouteDefinition[];
  }
}
