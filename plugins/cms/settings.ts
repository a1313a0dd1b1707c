/**
 * The three handlers' settings: JSON Schemas for the host (which validates and applies
 * defaults) and readers that apply the same defaults, so the behaviour modules also
 * work when called directly. A post type and a taxonomy are choices among those
 * registered (targets.ts), so a typo is refused when saved and the console offers a list.
 */
import type { JsonSchema, PostStatus } from '../../sdk/index.js';
import type { PostTarget } from './targets.js';

const DEFAULT_TYPE = 'post';
const DEFAULT_TAXONOMY = 'post_tag';

const postType = (targets: PostTarget[]) =>
  ({
    type: 'string',
    enum: targets.map((t) => t.name),
    default: DEFAULT_TYPE,
    title: 'Post type',
    description: 'One of the post types registered on this site',
  }) as const;

export type PublishSettings = {
  post_type: string;
  post_status: 'publish' | 'draft';
  taxonomy: string;
  /** Comma-separated term names attached to every post. */
  terms: string;
  include_source: boolean;
};

/**
 * Terms need a taxonomy the post type carries (wp/v2 shows no others): one rule per type,
 * applied when terms are given. A missing post type is the default one, so its rule also
 * matches an absent post_type. (A type without the default taxonomy needs one named: the
 * flows domain checks the settings again once defaults are filled in.)
 */
function taxonomyOfType(target: PostTarget): JsonSchema {
  const isDefault = target.name === DEFAULT_TYPE;
  return {
    if: {
      required: isDefault ? ['terms'] : ['post_type', 'terms'],
      properties: { post_type: { const: target.name }, terms: { type: 'string', pattern: '[^\\s,]' } },
    },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    then: target.taxonomies.length
      ? { properties: { taxonomy: { enum: target.taxonomies } } }
      : // A type with no taxonomy takes no terms.
        { properties: { terms: { maxLength: 0 } } },
  };
}

export function publishSchema(targets: PostTarget[]): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      post_type: postType(targets),
      post_status: {
        type: 'string',
        enum: ['publish', 'draft'],
        default: 'draft',
        title: 'Status',
        description: 'Publish at once or keep as draft',
      },
      taxonomy: {
        type: 'string',
        enum: [...new Set(targets.flatMap((t) => t.taxonomies))],
        default: DEFAULT_TAXONOMY,
        title: 'Taxonomy',
        description: 'Taxonomy of the terms below (one the post type carries)',
      },
      terms: {
        type: 'string',
        maxLength: 1000,
        default: '',
        title: 'Terms',
        description: 'Comma-separated term names to attach (created when missing)',
      },
      include_source: { type: 'boolean', default: true, title: 'Link the source', description: "Append a link to the item's source" },
    },
    allOf: targets.map(taxonomyOfType),
  };
}

export function readPublishSettings(raw: Partial<PublishSettings>): PublishSettings {
  return {
    post_type: raw.post_type ?? DEFAULT_TYPE,
    post_status: raw.post_status === 'publish' ? 'publish' : 'draft',
    taxonomy: raw.taxonomy ?? DEFAULT_TAXONOMY,
    terms: raw.terms ?? '',
    include_source: raw.include_source ?? true,
  };
}

export type LocalSettings = {
  post_type: string;
  post_status: PostStatus;
  search: string;
  /** Enforced by the engine when it claims items. */
  max_items: number;
};

export const localSchema = (targets: PostTarget[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    post_type: postType(targets),
    post_status: { type: 'string', enum: ['publish', 'draft', 'pending', 'private'], default: 'publish', title: 'Status' },
    search: {
      type: 'string',
      maxLength: 200,
      default: '',
      title: 'Search',
      description: 'Only posts whose title or content contains this text',
    },
    max_items: { type: 'integer', minimum: 1, maximum: 50, default: 1, title: 'Items per run' },
  },
});

export function readLocalSettings(raw: Partial<LocalSettings>): LocalSettings {
  return {
    post_type: raw.post_type ?? DEFAULT_TYPE,
    post_status: raw.post_status ?? 'publish',
    search: raw.search ?? '',
    max_items: raw.max_items ?? 1,
  };
}

export type UpdateSettings = {
  mode: 'replace' | 'append';
  update_title: boolean;
};

export const updateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: {
      type: 'string',
      enum: ['replace', 'append'],
      default: 'replace',
      title: 'Content',
      description: "Replace the post's content or append to it",
    },
    update_title: { type: 'boolean', default: true, title: 'Update title', description: "Also set the post's title from the item" },
  },
};

export function readUpdateSettings(raw: Partial<UpdateSettings>): UpdateSettings {
  return { mode: raw.mode === 'append' ? 'append' : 'replace', update_title: raw.update_title ?? true };
}
