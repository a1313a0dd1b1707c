/**
 * GET /events/filters: the terms a filter modal offers, counted in the current calendar
 * context. Faceted: a term's count is how many events match the other taxonomies' active
 * filters plus that term (its own taxonomy's filter is left out: ticking a second category
 * widens the choice, it does not zero the others), and a term counts the events of the
 * terms below it, as its archive lists them (term-tree.ts). The modal asks again on every
 * tick, so a 0 there is a combination with no events, and the box is disabled.
 */
import type { Term } from '../../sdk/index.js';
import { selectRows, shownDays, type CalendarArgs } from './calendar-query.js';
import type { EventRow } from './model.js';
import { expandFilter, withAncestors, type ParentMaps } from './term-tree.js';

export interface TaxonomyTerms {
  taxonomy: string;
  label: string;
  hierarchical: boolean;
  terms: Term[];
}

export interface FilterData {
  context: string;
  total: number;
  taxonomies: Array<{
    taxonomy: string;
    label: string;
    hierarchical: boolean;
    terms: Array<{ id: number; name: string; slug: string; parent: number; count: number; active: boolean }>;
  }>;
  parents: Record<string, Record<string, number>>;
  dependencies: Record<string, Record<string, Record<string, number[]>>>;
}

export function filterData(
  rows: readonly EventRow[],
  active: Omit<CalendarArgs, 'page'>,
  taxonomies: readonly TaxonomyTerms[],
  now: string,
  context: 'modal' | 'inline',
  tree: ParentMaps = new Map(),
): FilterData {
  const args = { ...active, taxFilter: expandFilter(active.taxFilter, tree) };
  const inWindow = (row: EventRow) => shownDays(row, args, now).length > 0;
  const windowRows = rows.filter(inWindow);
  const out: FilterData = { context, total: selectRows(windowRows, args).length, taxonomies: [], parents: {}, dependencies: {} };
  const known = new Set(taxonomies.map((t) => t.taxonomy));
  /** The row's terms of a taxonomy with their ancestors, each once: an event under Jazz is under Music too. */
  const carriedUp = (row: EventRow, taxonomy: string) =>
    new Set((row.terms[taxonomy] ?? []).flatMap((id) => withAncestors(tree.get(taxonomy), id)));

  for (const tax of taxonomies) {
    const counts = new Map<number, number>();
    for (const row of selectRows(windowRows, args, tax.taxonomy))
      for (const id of carriedUp(row, tax.taxonomy)) counts.set(id, (counts.get(id) ?? 0) + 1);
    const ticked = new Set(active.taxFilter[tax.taxonomy] ?? []);
    const terms = tax.terms
      .map((term) => ({
        id: term.term_id,
        name: term.name,
        slug: term.slug,
        parent: term.parent_id ?? 0,
        count: counts.get(term.term_id) ?? 0,
        active: ticked.has(term.term_id),
      }))
      .filter((term) => context === 'modal' || term.count > 0 || term.active);
    out.taxonomies.push({ taxonomy: tax.taxonomy, label: tax.label, hierarchical: tax.hierarchical, terms });
    const parents: Record<string, number> = {};
    for (const term of terms) if (term.parent) parents[String(term.id)] = term.parent;
    out.parents[tax.taxonomy] = parents;
    out.dependencies[tax.taxonomy] = {};
  }

  // Which terms of the other taxonomies occur together with each term in this context
  // (search and dates applied, no taxonomy filter): the modal greys out dead combinations.
  const together = new Map<string, Map<string, Set<number>>>();
  for (const row of selectRows(windowRows, { ...args, taxFilter: {} })) {
    const carried = Object.keys(row.terms)
      .filter((taxonomy) => known.has(taxonomy))
      .map((taxonomy): [string, number[]] => [taxonomy, [...carriedUp(row, taxonomy)]]);
    for (const [taxonomy, ids] of carried) {
      for (const id of ids) {
        const key = `${taxonomy}\u0000${id}`;
        let map = together.get(key);
        if (!map) together.set(key, (map = new Map()));
        for (const [other, otherIds] of carried) {
          if (other === taxonomy) continue;
          let set = map.get(other);
          if (!set) map.set(other, (set = new Set()));
          for (const otherId of otherIds) set.add(otherId);
        }
      }
    }
  }
  for (const [key, map] of together) {
    const [taxonomy, id] = key.split('\u0000') as [string, string];
    out.dependencies[taxonomy]![id] = Object.fromEntries([...map].map(([other, set]) => [other, [...set].sort((a, b) => a - b)]));
  }
  return out;
}
