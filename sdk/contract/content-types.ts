/**
 * The content domain's kinds (issue 54): post types and taxonomies are core-content's
 * extension points, not kernel kinds. A plugin adds as before,
 * `deps: { postTypes: services.postTypes, taxonomies: services.taxonomies }`; a plugin
 * that reads them (a tool listing readable types, the CMS handler's targets) asks the
 * domain: `deps: { contentTypes: services.contentTypes }`.
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import { createServiceRef } from '../kernel/service-ref.js';
import type { PostTypeDefinition, TaxonomyDefinition } from '../kernel/contributions.js';

/** The plugin that owns both points (core/content/plugin.ts). */
const owner = 'core-content';

/** Kinds of post the content domain stores and wp/v2 serves; keyed by `name`. */
export const postTypes = createExtensionPoint<PostTypeDefinition>({
  id: 'content.postTypes',
  owner,
  key: 'name',
  description: 'a kind of post (stored as post_type, served at wp/v2/{rest_base})',
});

/** Taxonomies of terms wp/v2 serves; keyed by `name`. */
export const taxonomies = createExtensionPoint<TaxonomyDefinition>({
  id: 'content.taxonomies',
  owner,
  key: 'name',
  description: 'a taxonomy of terms (served at wp/v2/{rest_base})',
});

/** What a plugin reads of the registered post types and taxonomies: once the host booted. */
export interface ContentTypes {
  /** Every registered post type, in the order added (throws before boot). */
  postTypes(): readonly PostTypeDefinition[];
  /** Every registered taxonomy, in the order added (throws before boot). */
  taxonomies(): readonly TaxonomyDefinition[];
}

/** `deps: { contentTypes: services.contentTypes }`: provided by core-content. */
export const contentTypesService = createServiceRef<ContentTypes, 'root'>({ id: 'contentTypes', scope: 'root' });
