/** wp/v2 `/types` and `/taxonomies`: what is registered, as WordPress lists it. */
import type { PostTypeDefinition, TaxonomyDefinition } from '../../kernel/contributions.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import * as S from '../wp-schemas.js';
import { apiError } from '../../errors/catalogue.js';
import { WpShared } from './shared.js';
import { WP_NAMESPACE } from './namespace.js';

/** WordPress's words for `context=edit` refused on post types and taxonomies. */
const EDIT_POSTS_REFUSED = 'Sorry, you are not allowed to edit posts in this post type.';
const MANAGE_TERMS_REFUSED = 'Sorry, you are not allowed to manage terms in this taxonomy.';

export class WpRegistryRoutes extends WpShared {
  routes(): RouteDefinition[] {
    return this.registryRoutes();
  }

  private typeView(type: PostTypeDefinition) {
    return {
      description: '',
      hierarchical: type.hierarchical ?? false,
      has_archive: false,
      name: type.label,
      slug: type.name,
      taxonomies: this.taxonomiesOf(type).map((t) => t.name),
      rest_base: type.rest_base,
      rest_namespace: WP_NAMESPACE,
    };
  }

  private taxonomyView(taxonomy: TaxonomyDefinition) {
    return {
      name: taxonomy.label,
      slug: taxonomy.name,
      description: '',
      types: this.typesOf(taxonomy),
      hierarchical: taxonomy.hierarchical,
      rest_base: taxonomy.rest_base,
      rest_namespace: WP_NAMESPACE,
    };
  }

  private registryRoutes(): RouteDefinition[] {
    const nameParams = (name: string) => ({ type: 'object', required: [name], properties: { [name]: { type: 'string', maxLength: 100 } } });
    return [
      {
        method: 'GET',
        path: '/types',
        permission: 'public',
        summary: 'The post types, keyed by name',
        schema: { query: S.singleQuery, responses: { 200: S.keyedBy(S.typeSchema), ...S.commonErrors } },
        handle: (request) => {
          // WordPress: the edit context is for those who may edit posts.
          if (request.query.context === 'edit' && !request.user?.can('edit_posts'))
            throw apiError('rest_cannot_view', { user: request.user });
          return json(200, Object.fromEntries(this.types.filter((t) => t.public !== false).map((t) => [t.name, this.typeView(t)])));
        },
      },
      {
        method: 'GET',
        path: '/types/{type}',
        permission: 'public',
        summary: 'One post type',
        schema: {
          params: nameParams('type'),
          query: S.singleQuery,
          responses: { 200: S.typeSchema, 404: errorBody('rest_type_invalid'), ...S.commonErrors },
        },
        handle: (request) => {
          const type = this.types.find((t) => t.name === request.params.type && t.public !== false);
          if (!type) throw apiError('rest_type_invalid');
          if (request.query.context === 'edit' && !request.user?.can('edit_posts'))
            throw apiError('rest_forbidden_context', { message: EDIT_POSTS_REFUSED, user: request.user });
          return json(200, this.typeView(type));
        },
      },
      {
        method: 'GET',
        path: '/taxonomies',
        permission: 'public',
        summary: 'The taxonomies, keyed by name (`type` keeps those of one post type)',
        schema: {
          query: {
            type: 'object',
            properties: { context: { type: 'string', enum: ['view', 'edit', 'embed'] }, type: { type: 'string', maxLength: 100 } },
          },
          responses: { 200: S.keyedBy(S.taxonomySchema), ...S.commonErrors },
        },
        handle: (request) => {
          if (request.query.context === 'edit' && !request.user?.can('edit_posts'))
            throw apiError('rest_cannot_view', { message: MANAGE_TERMS_REFUSED, user: request.user });
          const type = request.query.type as string | undefined;
          const shown = this.taxonomies.filter((t) => t.public !== false && (type === undefined || this.typesOf(t).includes(type)));
          return json(200, Object.fromEntries(shown.map((t) => [t.name, this.taxonomyView(t)])));
        },
      },
      {
        method: 'GET',
        path: '/taxonomies/{taxonomy}',
        permission: 'public',
        summary: 'One taxonomy',
        schema: {
          params: nameParams('taxonomy'),
          query: S.singleQuery,
          responses: { 200: S.taxonomySchema, 404: errorBody('rest_taxonomy_invalid'), ...S.commonErrors },
        },
        handle: (request) => {
          const taxonomy = this.taxonomies.find((t) => t.name === request.params.taxonomy && t.public !== false);
          if (!taxonomy) throw apiError('rest_taxonomy_invalid');
          if (request.query.context === 'edit' && !request.user?.can('manage_categories'))
            throw apiError('rest_forbidden_context', { message: MANAGE_TERMS_REFUSED, user: request.user });
          return json(200, this.taxonomyView(taxonomy));
        },
      },
    ];
  }

  // ---- posts ----
}
