/** How posts and terms are stored: one document each, the public fields plus `_id`. */
import type { Post, Term } from './model.js';

export const POSTS = 'posts';
export const TERMS = 'terms';

/** Explicit names so both adapters report the same index in a DuplicateKeyError. */
export const POST_SLUG_INDEX = 'posts_type_slug';
export const TERM_SLUG_INDEX = 'terms_taxonomy_slug';

/**
 * `date_floating`: no date was given, so the first publication moves `date` to then
 * (WordPress's drafts without a date behave so).
 */
export type PostRecord = Post & { date_floating?: boolean } & Record<string, unknown>;
export type TermRecord = Term & Record<string, unknown>;

/** A stored post as the contract's Post: known fields only, copies of nested values. */
export function toPost(doc: PostRecord): Post {
  return {
    post_id: doc.post_id,
    post_type: doc.post_type,
    status: doc.status,
    title: doc.title,
    slug: doc.slug,
    content: doc.content ?? '',
    excerpt: doc.excerpt ?? '',
    meta: { ...(doc.meta ?? {}) },
    terms: Object.fromEntries(Object.entries(doc.terms ?? {}).map(([taxonomy, ids]) => [taxonomy, [...ids]])),
    author_id: doc.author_id ?? null,
    parent_id: doc.parent_id ?? null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    published_at: doc.published_at ?? null,
    date: (doc.date as Date | undefined) ?? doc.published_at ?? doc.created_at,
  };
}

export function toTerm(doc: TermRecord): Term {
  return {
    term_id: doc.term_id,
    taxonomy: doc.taxonomy,
    name: doc.name,
    slug: doc.slug,
    parent_id: doc.parent_id ?? null,
    description: doc.description ?? '',
    meta: { ...(doc.meta ?? {}) },
  };
}
