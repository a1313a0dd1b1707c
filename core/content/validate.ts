/**
 * Input checks for the content store. Every failure is a 400 ApiError whose code names
 * the kind of input (invalid_post, invalid_term, invalid_post_query) and whose data
 * names the field, so REST surfaces can pass it straight through.
 */
import { apiError } from '../errors/catalogue.js';
import type { NewPost, PostPatch, PostQuery, PostStatus } from './model.js';

export const POST_STATUSES: readonly PostStatus[] = ['publish', 'draft', 'pending', 'private', 'trash'];
/** Post types and taxonomies become parts of dot paths (`terms.<taxonomy>`): no dots, no `$`. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
/** A taxonomy is a path segment itself (`terms.<taxonomy>`): the stores' path rule, no '-'. */
const TAXONOMY = /^[a-z0-9][a-z0-9_]{0,39}$/;
const TITLE_MAX = 1000;
export const PER_PAGE_MAX = 100;

/** The content store's input codes (core/errors/catalogue.ts), all 400 with the field named. */
type InputCode = 'invalid_post' | 'invalid_post_query' | 'invalid_term';

function fail(code: InputCode, field: string, message: string): never {
  throw apiError(code, { message, data: { field } });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

export function checkPostType(value: unknown, code: InputCode = 'invalid_post'): string {
  if (typeof value !== 'string' || !NAME.test(value)) {
    fail(code, 'post_type', `post_type must be 1-40 lower-case letters, digits, '-' or '_' (got ${JSON.stringify(value)})`);
  }
  return value;
}

export function checkTaxonomy(value: unknown, code: InputCode = 'invalid_term'): string {
  if (typeof value !== 'string' || !TAXONOMY.test(value)) {
    fail(code, 'taxonomy', `taxonomy must be 1-40 lower-case letters, digits or '_' (got ${JSON.stringify(value)})`);
  }
  return value;
}

export function checkStatus(value: unknown, code: InputCode = 'invalid_post'): PostStatus {
  if (!POST_STATUSES.includes(value as PostStatus)) fail(code, 'status', `status must be one of ${POST_STATUSES.join(', ')}`);
  return value as PostStatus;
}

function checkText(value: unknown, field: string, max?: number): string {
  if (typeof value !== 'string') fail('invalid_post', field, `${field} must be a string`);
  if (max !== undefined && value.length > max) fail('invalid_post', field, `${field} is longer than ${max} characters`);
  return value;
}

function checkOptionalId(value: unknown, field: string, code: InputCode = 'invalid_post'): number | null {
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || (value as number) < 1) fail(code, field, `${field} must be a positive integer or null`);
  return value as number;
}

/** Meta keys become dot paths in queries (`meta.<key>`), so they must be plain names. */
function checkMeta(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) fail('invalid_post', 'meta', 'meta must be an object');
  for (const key of Object.keys(value)) checkMetaKey(key, 'invalid_post');
  return { ...value };
}

export function checkMetaKey(key: string, code: InputCode): string {
  // The stores' field-path rule (`meta.<key>` is a path in updates and queries).
  if (!/^[A-Za-z0-9_]{1,100}$/.test(key)) {
    fail(code, 'meta', `meta key ${JSON.stringify(key)} must be 1-100 letters, digits or '_'`);
  }
  return key;
}

function checkTerms(value: unknown): Record<string, number[]> {
  if (!isPlainObject(value)) fail('invalid_post', 'terms', 'terms must be an object of taxonomy → term ids');
  const out: Record<string, number[]> = {};
  for (const [taxonomy, ids] of Object.entries(value)) {
    checkTaxonomy(taxonomy, 'invalid_post');
    if (!Array.isArray(ids) || ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
      fail('invalid_post', 'terms', `terms.${taxonomy} must be an array of positive integer term ids`);
    }
    out[taxonomy] = [...new Set(ids as number[])];
  }
  return out;
}

/** The checked fields of a new post; slug uniqueness and references are the service's job. */
export interface CheckedPost {
  post_type: string;
  status: PostStatus;
  title: string;
  slug?: string;
  content: string;
  excerpt: string;
  meta: Record<string, unknown>;
  terms: Record<string, number[]>;
  author_id: number | null;
  parent_id: number | null;
  date?: Date;
}

function checkDate(value: unknown, field: string, code: InputCode = 'invalid_post'): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) fail(code, field, `${field} must be a valid Date`);
  return value;
}

function checkIdList(value: unknown, field: string): number[] {
  if (!Array.isArray(value) || value.length > 1000 || value.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    fail('invalid_post_query', field, `${field} must be an array of at most 1000 positive integers`);
  }
  return value as number[];
}

export function checkNewPost(input: NewPost): CheckedPost {
  if (!isPlainObject(input as unknown)) fail('invalid_post', 'post', 'a post must be an object');
  return {
    post_type: checkPostType(input.post_type ?? 'post'),
    status: checkStatus(input.status ?? 'draft'),
    title: checkText(input.title, 'title', TITLE_MAX).trim(),
    ...(input.slug !== undefined ? { slug: checkText(input.slug, 'slug', TITLE_MAX) } : {}),
    content: checkText(input.content ?? '', 'content'),
    excerpt: checkText(input.excerpt ?? '', 'excerpt'),
    meta: checkMeta(input.meta ?? {}),
    terms: checkTerms(input.terms ?? {}),
    author_id: checkOptionalId(input.author_id ?? null, 'author_id'),
    parent_id: checkOptionalId(input.parent_id ?? null, 'parent_id'),
    ...(input.date !== undefined ? { date: checkDate(input.date, 'date') } : {}),
  };
}

/** Only the fields present in the patch, checked; `post_type` cannot be changed. */
export function checkPatch(patch: PostPatch): Partial<Omit<CheckedPost, 'post_type'>> {
  if (!isPlainObject(patch as unknown)) fail('invalid_post', 'post', 'a post patch must be an object');
  if ('post_type' in patch) fail('invalid_post', 'post_type', 'post_type cannot be changed');
  const out: Partial<Omit<CheckedPost, 'post_type'>> = {};
  if (patch.status !== undefined) out.status = checkStatus(patch.status);
  if (patch.title !== undefined) out.title = checkText(patch.title, 'title', TITLE_MAX).trim();
  if (patch.slug !== undefined) out.slug = checkText(patch.slug, 'slug', TITLE_MAX);
  if (patch.content !== undefined) out.content = checkText(patch.content, 'content');
  if (patch.excerpt !== undefined) out.excerpt = checkText(patch.excerpt, 'excerpt');
  if (patch.meta !== undefined) out.meta = checkMeta(patch.meta);
  if (patch.terms !== undefined) out.terms = checkTerms(patch.terms);
  if (patch.author_id !== undefined) out.author_id = checkOptionalId(patch.author_id, 'author_id');
  if (patch.parent_id !== undefined) out.parent_id = checkOptionalId(patch.parent_id, 'parent_id');
  if (patch.date !== undefined) out.date = checkDate(patch.date, 'date');
  return out;
}

export function checkTermName(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > 200) {
    fail('invalid_term', 'name', 'a term name must be a non-empty string of at most 200 characters');
  }
  return value.trim();
}

export function checkTermParent(value: unknown): number | null {
  return checkOptionalId(value ?? null, 'parent_id', 'invalid_term');
}

export function checkQuery(query: PostQuery): void {
  if (!isPlainObject(query as unknown)) fail('invalid_post_query', 'query', 'a post query must be an object');
  if (query.post_type !== undefined) checkPostType(query.post_type, 'invalid_post_query');
  if (query.status !== undefined) {
    for (const status of Array.isArray(query.status) ? query.status : [query.status]) checkStatus(status, 'invalid_post_query');
  }
  if (query.search !== undefined && typeof query.search !== 'string') fail('invalid_post_query', 'search', 'search must be a string');
  if (query.term !== undefined) {
    if (!isPlainObject(query.term)) fail('invalid_post_query', 'term', 'term must be an object');
    checkTaxonomy(query.term.taxonomy, 'invalid_post_query');
    if (query.term.term_id === undefined && query.term.slug === undefined)
      fail('invalid_post_query', 'term', 'term needs a term_id or a slug');
    if (query.term.term_id !== undefined && (!Number.isSafeInteger(query.term.term_id) || query.term.term_id < 1)) {
      fail('invalid_post_query', 'term', 'term.term_id must be a positive integer');
    }
    if (query.term.slug !== undefined && typeof query.term.slug !== 'string')
      fail('invalid_post_query', 'term', 'term.slug must be a string');
  }
  if (query.meta !== undefined) {
    if (!isPlainObject(query.meta)) fail('invalid_post_query', 'meta', 'meta must be an object');
    for (const [key, value] of Object.entries(query.meta)) {
      checkMetaKey(key, 'invalid_post_query');
      if (!['string', 'number', 'boolean'].includes(typeof value))
        fail('invalid_post_query', 'meta', `meta.${key} must be a string, number or boolean`);
    }
  }
  if (query.parent_id !== undefined && query.parent_id !== null && (!Number.isSafeInteger(query.parent_id) || query.parent_id < 1)) {
    fail('invalid_post_query', 'parent_id', 'parent_id must be a positive integer or null');
  }
  if (query.terms !== undefined) {
    if (!Array.isArray(query.terms) || query.terms.length > 50)
      fail('invalid_post_query', 'terms', 'terms must be an array of at most 50 { taxonomy, term_ids }');
    for (const entry of query.terms) {
      if (!isPlainObject(entry)) fail('invalid_post_query', 'terms', 'terms entries must be objects');
      checkTaxonomy(entry.taxonomy, 'invalid_post_query');
      checkIdList(entry.term_ids, 'terms');
    }
  }
  if (query.include !== undefined) checkIdList(query.include, 'include');
  if (query.exclude !== undefined) checkIdList(query.exclude, 'exclude');
  if (query.author !== undefined) checkIdList(query.author, 'author');
  if (
    query.slug !== undefined &&
    (!Array.isArray(query.slug) || query.slug.length > 1000 || query.slug.some((s) => typeof s !== 'string'))
  ) {
    fail('invalid_post_query', 'slug', 'slug must be an array of at most 1000 strings');
  }
  if (query.after !== undefined) checkDate(query.after, 'after', 'invalid_post_query');
  if (query.before !== undefined) checkDate(query.before, 'before', 'invalid_post_query');
  const orderings = ['created_at', 'post_id', 'title', 'published_at', 'updated_at', 'slug', 'date'];
  if (query.orderby !== undefined && !orderings.includes(query.orderby)) {
    fail('invalid_post_query', 'orderby', `orderby must be one of ${orderings.join(', ')}`);
  }
  if (query.order !== undefined && query.order !== 'asc' && query.order !== 'desc')
    fail('invalid_post_query', 'order', 'order must be asc or desc');
  if (query.per_page !== undefined && (!Number.isSafeInteger(query.per_page) || query.per_page < 1 || query.per_page > PER_PAGE_MAX)) {
    fail('invalid_post_query', 'per_page', `per_page must be an integer from 1 to ${PER_PAGE_MAX}`);
  }
  if (query.offset !== undefined && (!Number.isSafeInteger(query.offset) || query.offset < 0)) {
    fail('invalid_post_query', 'offset', 'offset must be a non-negative integer');
  }
}
