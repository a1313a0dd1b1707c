/**
 * JSON schemas of the wp/v2 surface: its inputs, and its answers as WordPress sends them
 * (arrays and plain objects, no `success`). Every object schema of an answer names every
 * field it may carry; the test host closes those that leave `additionalProperties` out.
 */
import type { JsonSchema } from '../kernel/json-schema.js';
import { errorBody } from '../kernel/response-schemas.js';
import type { PostTypeDefinition, TaxonomyDefinition } from '../kernel/contributions.js';

export const POST_STATUSES_WRITABLE = ['publish', 'draft', 'pending', 'private'] as const;
export const LIST_STATUSES = ['publish', 'draft', 'pending', 'private', 'trash', 'any'] as const;

/** A comma-separated list or a repeated `name[]`: strings here, checked by the route. */
export const listParam: JsonSchema = { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 2000 } };
const context: JsonSchema = { type: 'string', enum: ['view', 'edit', 'embed'], default: 'view' };
const dateText: JsonSchema = { type: 'string', maxLength: 40 };

export const idParams: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
};

export function postListQuery(taxonomies: readonly TaxonomyDefinition[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      context,
      page: { type: 'integer', minimum: 1, default: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      search: { type: 'string', maxLength: 200 },
      after: dateText,
      before: dateText,
      modified_after: dateText,
      modified_before: dateText,
      author: listParam,
      author_exclude: listParam,
      exclude: listParam,
      include: listParam,
      offset: { type: 'integer', minimum: 0 },
      order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      orderby: { type: 'string', enum: ['date', 'id', 'title', 'slug', 'modified', 'include', 'relevance'], default: 'date' },
      slug: listParam,
      status: listParam,
      ...Object.fromEntries(taxonomies.map((t) => [t.rest_base, listParam])),
    },
  };
}

export const singleQuery: JsonSchema = { type: 'object', properties: { context } };

export const deleteQuery: JsonSchema = { type: 'object', properties: { force: { type: 'boolean', default: false } } };
export const deleteBody: JsonSchema = { type: 'object', properties: { force: { type: 'boolean' } } };

/** `title: "x"` or `title: { raw: "x" }`, as WordPress takes both. */
const textField = (max?: number): JsonSchema => ({
  anyOf: [
    { type: 'string', ...(max ? { maxLength: max } : {}) },
    { type: 'object', properties: { raw: { type: 'string', ...(max ? { maxLength: max } : {}) } } },
  ],
});

const metaInput: JsonSchema = {
  type: 'object',
  maxProperties: 100,
  // Keys become dot paths; `_`-keys are WordPress's protected meta, kept for the server.
  propertyNames: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_]{0,99}$' },
  additionalProperties: {
    anyOf: [
      { type: 'string', maxLength: 100_000 },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'null' },
      { type: 'array', maxItems: 100 },
      { type: 'object', maxProperties: 100 },
    ],
  },
};

/**
 * The meta input with the type's declared keys held to their schemas (a `null` still
 * removes the key), so a bad value is a 400 naming `meta.<key>`, not a post the type's
 * plugin cannot read.
 */
function typedMeta(type: PostTypeDefinition): JsonSchema {
  if (!type.meta || Object.keys(type.meta).length === 0) return metaInput;
  return {
    ...metaInput,
    properties: Object.fromEntries(Object.entries(type.meta).map(([key, schema]) => [key, { anyOf: [schema, { type: 'null' }] }])),
  };
}

const termIds: JsonSchema = { type: 'array', maxItems: 100, items: { type: 'integer', minimum: 1 } };

export function postBody(type: PostTypeDefinition, taxonomies: readonly TaxonomyDefinition[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      title: textField(1000),
      content: textField(),
      excerpt: textField(),
      status: { type: 'string', enum: [...POST_STATUSES_WRITABLE] },
      slug: { type: 'string', maxLength: 200 },
      date: { anyOf: [dateText, { type: 'null' }] },
      date_gmt: { anyOf: [dateText, { type: 'null' }] },
      author: { type: 'integer', minimum: 1 },
      featured_media: { type: 'integer', minimum: 0 },
      meta: typedMeta(type),
      // Accepted as WordPress clients send them; this host keeps no comments or formats.
      comment_status: { type: 'string', enum: ['open', 'closed'] },
      ping_status: { type: 'string', enum: ['open', 'closed'] },
      format: { type: 'string', maxLength: 20 },
      sticky: { type: 'boolean' },
      template: { type: 'string', maxLength: 200 },
      ...(type.hierarchical ? { parent: { type: 'integer', minimum: 0 } } : {}),
      ...Object.fromEntries(taxonomies.map((t) => [t.rest_base, termIds])),
    },
  };
}

export function termListQuery(taxonomy: TaxonomyDefinition): JsonSchema {
  return {
    type: 'object',
    properties: {
      context,
      page: { type: 'integer', minimum: 1, default: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      search: { type: 'string', maxLength: 200 },
      exclude: listParam,
      include: listParam,
      offset: { type: 'integer', minimum: 0 },
      order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
      orderby: { type: 'string', enum: ['id', 'include', 'name', 'slug', 'count'], default: 'name' },
      hide_empty: { type: 'boolean', default: false },
      post: { type: 'integer', minimum: 1 },
      slug: listParam,
      ...(taxonomy.hierarchical ? { parent: { type: 'integer', minimum: 0 } } : {}),
    },
  };
}

export function termBody(taxonomy: TaxonomyDefinition, create: boolean): JsonSchema {
  return {
    type: 'object',
    ...(create ? { required: ['name'] } : {}),
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200 },
      description: { type: 'string', maxLength: 10_000 },
      slug: { type: 'string', maxLength: 200 },
      meta: metaInput,
      ...(taxonomy.hierarchical ? { parent: { type: 'integer', minimum: 0 } } : {}),
    },
  };
}

// ---- answers ----

const rendered = (extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  required: ['rendered'],
  properties: { rendered: { type: 'string' }, raw: { type: 'string' }, ...extra },
});

/** `_links`: rel → [{href, embeddable?, taxonomy?}], as WordPress's prepare_links. */
const links: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } },
};

export function postSchema(type: PostTypeDefinition, taxonomies: readonly TaxonomyDefinition[]): JsonSchema {
  return {
    type: 'object',
    // What every context (view, edit, embed) carries.
    required: ['id', 'date', 'slug', 'type', 'link', 'title', 'author'],
    properties: {
      id: { type: 'integer' },
      date: { type: 'string' },
      date_gmt: { type: 'string' },
      guid: rendered(),
      modified: { type: 'string' },
      modified_gmt: { type: 'string' },
      slug: { type: 'string' },
      status: { type: 'string' },
      type: { const: type.name },
      link: { type: 'string' },
      title: rendered(),
      content: rendered({ protected: { type: 'boolean' } }),
      excerpt: rendered({ protected: { type: 'boolean' } }),
      author: { type: 'integer' },
      featured_media: { type: 'integer' },
      comment_status: { type: 'string' },
      ping_status: { type: 'string' },
      meta: { type: 'object', additionalProperties: true },
      ...(type.name === 'post' ? { format: { type: 'string' }, sticky: { type: 'boolean' } } : {}),
      ...(type.hierarchical ? { parent: { type: 'integer' } } : {}),
      ...Object.fromEntries(taxonomies.map((t) => [t.rest_base, { type: 'array', items: { type: 'integer' } }])),
      _links: links,
      // With `_embed`: author, wp:term, wp:featuredmedia (items or error bodies).
      _embedded: { type: 'object', additionalProperties: true },
    },
  };
}

export function termSchema(taxonomy: TaxonomyDefinition): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'link', 'name', 'slug', 'taxonomy'],
    properties: {
      id: { type: 'integer' },
      count: { type: 'integer' },
      description: { type: 'string' },
      link: { type: 'string' },
      name: { type: 'string' },
      slug: { type: 'string' },
      taxonomy: { const: taxonomy.name },
      meta: { type: 'object', additionalProperties: true },
      ...(taxonomy.hierarchical ? { parent: { type: 'integer' } } : {}),
      _links: links,
    },
  };
}

export const deletedSchema = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['deleted', 'previous'],
  properties: { deleted: { const: true }, previous: item },
});

export const typeSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'slug', 'rest_base'],
  properties: {
    description: { type: 'string' },
    hierarchical: { type: 'boolean' },
    has_archive: { type: 'boolean' },
    name: { type: 'string' },
    slug: { type: 'string' },
    taxonomies: { type: 'array', items: { type: 'string' } },
    rest_base: { type: 'string' },
    rest_namespace: { type: 'string' },
  },
};

export const taxonomySchema: JsonSchema = {
  type: 'object',
  required: ['name', 'slug', 'rest_base'],
  properties: {
    name: { type: 'string' },
    slug: { type: 'string' },
    description: { type: 'string' },
    types: { type: 'array', items: { type: 'string' } },
    hierarchical: { type: 'boolean' },
    rest_base: { type: 'string' },
    rest_namespace: { type: 'string' },
  },
};

export const keyedBy = (item: JsonSchema): JsonSchema => ({ type: 'object', additionalProperties: item });

/**
 * Errors any wp/v2 route may answer besides its own: bad input (400, whatever rule of
 * the host's input checks caught it), authentication (401/403: bad credentials, a
 * missing nonce, a role without the capability), a body too large, the login throttle.
 */
export const commonErrors: Readonly<Record<number, JsonSchema>> = {
  // The dispatcher's own (rest_invalid_json, 413, 429...) are added to every route.
  400: errorBody(
    'rest_invalid_param',
    'invalid_post',
    'invalid_post_query',
    'invalid_term',
    'empty_content',
    'rest_term_invalid',
    'rest_post_invalid_id',
    'rest_post_invalid_page_number',
    'rest_orderby_include_missing_include',
    'rest_post_invalid_parent',
    'term_exists',
  ),
  // WordPress answers a per-post refusal 401 to strangers and 403 to users.
  401: errorBody(
    'rest_forbidden',
    'rest_forbidden_context',
    'rest_cannot_view',
    'rest_cannot_edit',
    'rest_cannot_delete',
    'rest_cannot_publish',
    'rest_cannot_edit_others',
  ),
  403: errorBody(
    'rest_forbidden',
    'rest_forbidden_context',
    'rest_cannot_view',
    'rest_cannot_edit',
    'rest_cannot_delete',
    'rest_cannot_publish',
    'rest_cannot_edit_others',
  ),
};
