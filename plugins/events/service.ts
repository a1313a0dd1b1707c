/** What the routes and the page share: the event index, the site's time, the event taxonomies and their terms. */
import type { ContentStore, Clock, ContentTypes, Term } from '../../sdk/index.js';
import { groupDays, nextChange, pageOf, shownDays, type CalendarArgs, type CalendarPage, type Grouping } from './calendar-query.js';
import type { EventIndex, Snapshot } from './event-index.js';
import { filterData, type FilterData, type TaxonomyTerms } from './filters.js';
import { renderFragments, type Fragments } from './fragments.js';
import { wallTime } from './local-time.js';
import { expandFilter, parentMaps, withDescendants } from './term-tree.js';
import { EVENT_TYPE, type VenueRow } from './model.js';
import { eventsError } from './errors.js';

export interface EventsSettings {
  timezone: string;
  page_path: string;
  page_title: string;
  events_per_page: number;
  excluded_taxonomies: string[];
}

const GROUPINGS_KEPT = 64;

export class EventsService {
  /**
   * Groupings by arguments (page aside), per snapshot: paging through a listing, or many
   * visitors on the same view, reuse one pass over the events. Dropped with the snapshot.
   */
  private readonly groupings = new WeakMap<Snapshot, Map<string, Grouping>>();
  /** Filter answers the same way; term lists are part of the key, so a term edit is seen. */
  private readonly filterAnswers = new WeakMap<Snapshot, Map<string, { data: FilterData; validUntil: string | null }>>();

  constructor(
    readonly index: EventIndex,
    private readonly content: ContentStore,
    private readonly types: ContentTypes,
    private readonly clock: Clock,
    readonly settings: EventsSettings,
  ) {}

  now(): string {
    return wallTime(this.clock.now(), this.settings.timezone);
  }

  /** Every taxonomy registered for events (this plugin's and other plugins'). */
  taxonomyNames(): Set<string> {
    return new Set(
      this.types
        .taxonomies()
        .filter((t) => t.post_types.includes(EVENT_TYPE))
        .map((t) => t.name),
    );
  }

  /** The event taxonomies a filter modal shows: all but the excluded ones, with their terms. */
  async filterTaxonomies(): Promise<TaxonomyTerms[]> {
    const excluded = new Set(this.settings.excluded_taxonomies);
    const list = this.types.taxonomies().filter((t) => t.post_types.includes(EVENT_TYPE) && !excluded.has(t.name));
    return Promise.all(
      list.map(async (t) => ({
        taxonomy: t.name,
        label: t.label,
        hierarchical: t.hierarchical,
        terms: await this.content.listTerms(t.name),
      })),
    );
  }

  async calendar(args: CalendarArgs): Promise<{ page: CalendarPage; fragments: Fragments }> {
    if (args.archive && !(await this.content.getTerm(args.archive.taxonomy, args.archive.termId))) {
      throw eventsError('event_term_not_found', { message: `No ${args.archive.taxonomy} term ${args.archive.termId}.` });
    }
    const [snapshot, lists] = await Promise.all([this.index.current(), this.termLists()]);
    const parents = parentMaps(lists);
    // Selected with each term's children included; the links keep the terms as chosen.
    const selection: CalendarArgs = {
      ...args,
      taxFilter: expandFilter(args.taxFilter, parents),
      archive: args.archive
        ? { ...args.archive, termIds: withDescendants(parents.get(args.archive.taxonomy), [args.archive.termId]) }
        : null,
    };
    const page = pageOf(this.grouping(snapshot, selection), args.page);
    const names = new Map(
      [...lists]
        .filter(([t]) => !this.settings.excluded_taxonomies.includes(t))
        .map(([t, terms]) => [t, new Map(terms.map((term) => [term.term_id, term.name]))]),
    );
    const labels = new Map(this.types.taxonomies().map((t) => [t.name, t.label]));
    const active = Object.entries(args.taxFilter).flatMap(([taxonomy, ids]) =>
      ids.flatMap((id) => {
        const name = lists.get(taxonomy)?.find((term) => term.term_id === id)?.name;
        return name ? [{ taxonomy, taxonomyLabel: labels.get(taxonomy) ?? taxonomy, id, name }] : [];
      }),
    );
    const fragments = renderFragments({
      page,
      args,
      basePath: this.settings.page_path,
      venues: snapshot.venues,
      termName: (taxonomy, id) => names.get(taxonomy)?.get(id),
      active,
    });
    return { page, fragments };
  }

  async filters(args: Omit<CalendarArgs, 'page'>, context: 'modal' | 'inline') {
    const [snapshot, taxonomies, lists] = await Promise.all([this.index.current(), this.filterTaxonomies(), this.termLists()]);
    const now = this.now();
    let cache = this.filterAnswers.get(snapshot);
    if (!cache) this.filterAnswers.set(snapshot, (cache = new Map()));
    const key = JSON.stringify([
      args,
      context,
      [...lists].map(([t, terms]) => [t, terms.map((term) => [term.term_id, term.name, term.slug, term.parent_id])]),
      taxonomies.map((t) => t.taxonomy),
    ]);
    const hit = cache.get(key);
    if (hit && (hit.validUntil === null || now < hit.validUntil)) return hit.data;
    const data = filterData(snapshot.events, args, taxonomies, now, context, parentMaps(lists));
    cache.delete(key);
    if (cache.size >= GROUPINGS_KEPT) cache.delete(cache.keys().next().value!);
    cache.set(key, { data, validUntil: args.dateStart || args.dateEnd ? null : nextChange(snapshot.events, now) });
    return data;
  }

  /** Events at the venue that have not ended yet. */
  async upcomingAt(venueId: number): Promise<number> {
    const snapshot = await this.index.current();
    const now = this.now();
    return snapshot.events.filter(
      (e) => e.venueId === venueId && shownDays(e, { dateStart: null, dateEnd: null, past: false }, now).length > 0,
    ).length;
  }

  async venue(id: number): Promise<VenueRow | null> {
    return (await this.index.current()).venues.get(id) ?? null;
  }

  private grouping(snapshot: Snapshot, args: CalendarArgs): Grouping {
    const now = this.now();
    let cache = this.groupings.get(snapshot);
    if (!cache) this.groupings.set(snapshot, (cache = new Map()));
    const { page: _page, ...rest } = args;
    const key = JSON.stringify(rest);
    const hit = cache.get(key);
    if (hit && (hit.validUntil === null || now < hit.validUntil)) return hit;
    const grouping = groupDays(snapshot.events, rest, now, this.settings.events_per_page);
    cache.delete(key);
    if (cache.size >= GROUPINGS_KEPT) cache.delete(cache.keys().next().value!);
    cache.set(key, grouping);
    return grouping;
  }

  /** The terms of every event taxonomy (excluded ones too: a tax_filter may still name them). */
  private async termLists(): Promise<Map<string, Term[]>> {
    const lists = await Promise.all(
      [...this.taxonomyNames()].map(async (t): Promise<[string, Term[]]> => [t, await this.content.listTerms(t)]),
    );
    return new Map(lists);
  }
}
