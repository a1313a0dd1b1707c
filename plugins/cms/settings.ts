/**
 * The three handlers' settings: JSON Schemas for the host (which validates and applies
 * defaults) and readers that apply the same defaults, so the behaviour modules also
 * work when called directly.
 */
import type { JsonSchema, PostStatus } from '../../sdk/index.js';

const postType = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,39}$', default: 'post', title: 'Post type' } as const;

export type PublishSettings = {
  post_type: string;
  post_status: 'publish' | 'draft';
  taxonomy: string;
  /** Comma-separated term names attached to every post. */
  terms: string;
  include_source: boolean;
};

export const publishSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    post_type: postType,
    post_status: {
      type: 'string',
      enum: ['publish', 'draft'],
      default: 'draft',
      title: 'Status',
      description: 'Publish at once or keep as draft',
    },
    taxonomy: {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9_-]{0,39}$',
      default: 'post_tag',
      title: 'Taxonomy',
      description: 'Taxonomy of the terms below',
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
};

export function readPublishSettings(raw: Partial<PublishSettings>): PublishSettings {
  return {
    post_type: raw.post_type ?? 'post',
    post_status: raw.post_status === 'publish' ? 'publish' : 'draft',
    taxonomy: raw.taxonomy ?? 'post_tag',
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

export const localSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    post_type: postType,
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
};

export function readLocalSettings(raw: Partial<LocalSettings>): LocalSettings {
  return {
    post_type: raw.post_type ?? 'post',
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
