/**
 * Term hierarchies of the event taxonomies. A WordPress category archive lists the posts
 * of the category and of every category below it; the calendar does the same: a filter or
 * archive on "Music" also selects events filed only under its child "Jazz", and a term's
 * count in the filter modal is the events it would select.
 */
import type { Term } from '../../sdk/index.js';

/** taxonomy → term id → parent id (top-level terms are absent). */
export type ParentMaps = ReadonlyMap<string, ReadonlyMap<number, number>>;

export function parentMaps(lists: Iterable<readonly [string, readonly Term[]]>): ParentMaps {
  const out = new Map<string, Map<number, number>>();
  for (const [taxonomy, terms] of lists) {
    const parents = new Map<number, number>();
    for (const term of terms) if (term.parent_id) parents.set(term.term_id, term.parent_id);
    out.set(taxonomy, parents);
  }
  return out;
}

/** The term and its ancestors, nearest first; a cycle in the stored parents cannot loop forever. */
export function withAncestors(parents: ReadonlyMap<number, number> | undefined, id: number): number[] {
  const out = [id];
  const seen = new Set(out);
  for (let up = parents?.get(id); up !== undefined && !seen.has(up); up = parents?.get(up)) {
    out.push(up);
    seen.add(up);
  }
  return out;
}

/** Each id with every term below it, sorted (so equal selections give equal cache keys). */
export function withDescendants(parents: ReadonlyMap<number, number> | undefined, ids: readonly number[]): number[] {
  const wanted = new Set(ids);
  if (parents) {
    for (const child of parents.keys()) if (withAncestors(parents, child).some((id) => wanted.has(id))) wanted.add(child);
  }
  return [...wanted].sort((a, b) => a - b);
}

/** A taxonomy filter with each selected term's descendants added. */
export function expandFilter(filter: Record<string, number[]>, parents: ParentMaps): Record<string, number[]> {
  return Object.fromEntries(Object.entries(filter).map(([taxonomy, ids]) => [taxonomy, withDescendants(parents.get(taxonomy), ids)]));
}
