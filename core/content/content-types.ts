/**
 * The registered post types and taxonomies, as the content domain reads them (its
 * extension points, issue 54): what `services.contentTypes` answers, and the cross-item
 * checks no single add can make (wp/v2 path segments, the types a taxonomy names).
 */
import { PluginError } from '../errors.js';
import type { ExtensionPointContributions } from '../kernel/extension-point.js';
import type { PostTypeDefinition, TaxonomyDefinition } from '../kernel/contributions.js';
import type { ContentTypes } from '../../sdk/contract/content-types.js';

export interface HostContentTypes extends ContentTypes {
  /** Refuses two items on one rest_base and a taxonomy naming a type nobody registered (once the lists are sealed). */
  check(): void;
}

export function contentTypesOf(lists: {
  postTypes: ExtensionPointContributions<PostTypeDefinition>;
  taxonomies: ExtensionPointContributions<TaxonomyDefinition>;
}): HostContentTypes {
  return {
    postTypes: () => lists.postTypes.list(),
    taxonomies: () => lists.taxonomies.list(),
    check() {
      // Post types and taxonomies share wp/v2's path segments; a taxonomy names existing types.
      const bases = new Map<string, string>();
      const entries = [...lists.postTypes.entries(), ...lists.taxonomies.entries()];
      for (const { owner, item } of entries) {
        const before = bases.get(item.rest_base);
        if (before) throw new PluginError(owner, `'${item.name}' uses rest_base '${item.rest_base}', already used by '${before}'`);
        bases.set(item.rest_base, item.name);
      }
      const types = new Set(lists.postTypes.list().map((t) => t.name));
      for (const { owner, item: taxonomy } of lists.taxonomies.entries()) {
        const unknown = taxonomy.post_types.filter((t) => !types.has(t));
        if (unknown.length)
          throw new PluginError(owner, `taxonomy '${taxonomy.name}' names post types nobody registered: ${unknown.join(', ')}`);
      }
    },
  };
}
