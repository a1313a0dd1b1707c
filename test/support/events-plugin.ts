// A third party's post type and taxonomy, registered through the SDK only: `event` (served
// at `events`) tagged with `venue` (served at `venues`), for the suites that check what
// wp/v2 and the site's pages give a plugin's types.
import { definePlugin, definePostType, defineTaxonomy, services, type PostTypeDefinition } from '../../sdk/index.js';

/** The events plugin under this id; `hierarchical` makes events nest (parent pages) as WordPress's pages do. */
export function eventsPlugin(id: string, options: { hierarchical?: boolean } = {}) {
  return definePlugin({
    id,
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { postTypes: services.postTypes, taxonomies: services.taxonomies },
    setup({ postTypes, taxonomies }) {
      const nesting: Partial<PostTypeDefinition> = options.hierarchical ? { hierarchical: true } : {};
      postTypes.add(definePostType({ name: 'event', label: 'Events', rest_base: 'events', ...nesting, taxonomies: ['venue'] }));
      taxonomies.add(defineTaxonomy({ name: 'venue', label: 'Venues', rest_base: 'venues', hierarchical: false, post_types: ['event'] }));
    },
  });
}
