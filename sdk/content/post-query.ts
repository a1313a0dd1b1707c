/** A PostQuery as a port filter and sort (the query is checked before it gets here). */
import type { Filter, SortSpec } from '../store/port.js';
import type { PostQuery } from './model.js';
import { escapeRegExp } from './slug.js';

export const DEFAULT_PER_PAGE = 10;

/** `termId` is the resolved term of `query.term` (the service looks slugs up first). */
export function postFilter(query: PostQuery, termId?: number): Filter {
  const and: Filter[] = [];
  if (query.post_type !== undefined) and.push({ post_type: query.post_type });
  if (query.status !== undefined) {
    and.push(Array.isArray(query.status) ? { status: { $in: [...query.status] } } : { status: query.status });
  }
  if (query.search !== undefined && query.search.length > 0) {
    // A literal substring: the pattern is escaped, and `i` is the one flag both adapters promise.
    const pattern = { $regex: escapeRegExp(query.search), $options: 'i' };
    and.push({ $or: [{ title: pattern }, { content: pattern }] });
  }
  // Equality against an array field matches when any element matches.
  if (query.term !== undefined && termId !== undefined) and.push({ [`terms.${query.term.taxonomy}`]: termId });
  for (const { taxonomy, term_ids } of query.terms ?? []) and.push({ [`terms.${taxonomy}`]: { $in: [...term_ids] } });
  if (query.include !== undefined) and.push({ post_id: { $in: [...query.include] } });
  if (query.exclude !== undefined && query.exclude.length > 0) and.push({ post_id: { $nin: [...query.exclude] } });
  if (query.slug !== undefined) and.push({ slug: { $in: [...query.slug] } });
  if (query.author !== undefined) and.push({ author_id: { $in: [...query.author] } });
  if (query.after !== undefined) and.push({ date: { $gt: query.after } });
  if (query.before !== undefined) and.push({ date: { $lt: query.before } });
  for (const [key, value] of Object.entries(query.meta ?? {})) and.push({ [`meta.${key}`]: value });
  if (query.parent_id !== undefined) and.push({ parent_id: query.parent_id });
  return and.length === 0 ? {} : and.length === 1 ? and[0]! : { $and: and };
}

/** Newest first by default; post_id breaks ties so pages never overlap. */
export function postSort(query: PostQuery): SortSpec {
  const direction = query.order === 'asc' ? 1 : -1;
  const field = query.orderby ?? 'created_at';
  return field === 'post_id' ? { post_id: direction } : { [field]: direction, post_id: direction };
}
