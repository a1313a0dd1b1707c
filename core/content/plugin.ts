import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { ContentService } from './service.js';
import { sitePagesSurface } from './site-pages.js';
import { wpSurface } from './wp-routes.js';
import { SiteHooks } from './site-hooks.js';
import { domainHookFactories } from '../kernel/domain-hook-services.js';
import { postTypes as postTypePoint, taxonomies as taxonomyPoint } from '../../sdk/contract/content-types.js';
import { contentTypesOf } from './content-types.js';

/** Posts and taxonomy terms: the site's content, which handlers and surfaces build on. */
export const contentPlugin = definePlugin({
  id: 'core-content',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Posts and taxonomy terms.',
  collections: ['posts', 'terms'],
  // Only the content domain reads post types and taxonomies: its points, not kernel kinds.
  extensionPoints: [postTypePoint, taxonomyPoint],
  provides: [
    // `siteHome`: the site pages' own to call, every plugin's to answer.
    ...domainHookFactories(services.siteHooks, services.siteEvents, () => new SiteHooks()),
    createServiceFactory({
      service: services.content,
      deps: { store: services.rootStore, clock: services.clock },
      async factory({ store, clock }) {
        const content = new ContentService(store, clock);
        await content.init();
        return content;
      },
    }),
    // What other plugins read of the types: the live lists, read at call time (after boot).
    createServiceFactory({
      service: services.contentTypes,
      deps: { postTypes: postTypePoint.contributions, taxonomies: taxonomyPoint.contributions },
      factory: (lists) => contentTypesOf(lists),
    }),
  ],
  deps: {
    postTypes: services.postTypes,
    taxonomies: services.taxonomies,
    routes: services.routes,
    content: services.content,
    contentTypes: services.contentTypes,
    booted: services.hooks,
    hostInfo: services.hostInfo,
    users: services.users,
    hooks: services.siteHooks,
  },
  setup({ postTypes, taxonomies, routes, content, contentTypes, booted, hostInfo, users, hooks }) {
    // The wp/v2 surface: its routes are built at boot from every registered post type
    // and taxonomy, so other plugins' types (documentation, event...) get routes too.
    routes.add(wpSurface({ content, contentTypes, hostInfo, users }));
    // The pages behind the `link` of every post, term and user wp/v2 answers, and the
    // discovery header on the site root.
    routes.add(sitePagesSurface({ hooks, content, contentTypes, hostInfo, users }));
    // Types and taxonomies share wp/v2's path segments: checked once the lists are whole.
    booted.booted.tap('core-content', () => contentTypes.check());
    // WordPress's own: what wp/v2 clients expect at /posts, /categories and /tags.
    postTypes.add({
      name: 'post',
      label: 'Posts',
      rest_base: 'posts',
      public: true,
      hierarchical: false,
      taxonomies: ['category', 'post_tag'],
    });
    taxonomies.add({
      name: 'category',
      label: 'Categories',
      rest_base: 'categories',
      hierarchical: true,
      post_types: ['post'],
      public: true,
    });
    taxonomies.add({ name: 'post_tag', label: 'Tags', rest_base: 'tags', hierarchical: false, post_types: ['post'], public: true });
  },
});
