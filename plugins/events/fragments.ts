/** The fragments GET /events/calendar answers (and the page renders server-side). */
import type { CalendarArgs, CalendarPage } from './calendar-query.js';
import { longDay, mediumDay } from './local-time.js';
import type { EventRow, VenueRow } from './model.js';
import { renderActive, renderCounter, renderList, renderNavigation, renderPagination, type EventView } from './templates.js';

export interface Fragments {
  html: string;
  pagination: string;
  navigation: string;
  counter: string;
  active: string;
}

/** An applied taxonomy filter, as the page lists it. */
export interface ActiveTerm {
  taxonomy: string;
  taxonomyLabel: string;
  id: number;
  name: string;
}

/** The query string that reproduces these arguments (PHP-style tax_filter), with overrides. */
export function stateQuery(args: CalendarArgs, override: { page?: number; past?: boolean } = {}): string {
  const q = new URLSearchParams();
  if (args.search) q.set('event_search', args.search);
  if (args.dateStart) q.set('date_start', args.dateStart);
  if (args.dateEnd) q.set('date_end', args.dateEnd);
  for (const [taxonomy, ids] of Object.entries(args.taxFilter)) for (const id of ids) q.append(`tax_filter[${taxonomy}][]`, String(id));
  if (args.archive) {
    q.set('archive_taxonomy', args.archive.taxonomy);
    q.set('archive_term_id', String(args.archive.termId));
  }
  const past = override.past ?? args.past;
  if (past) q.set('past', '1');
  const page = override.page ?? args.page;
  if (page > 1) q.set('paged', String(page));
  const text = q.toString();
  return text ? `?${text}` : '';
}

function timeOf(row: EventRow, day: string): { time: string; continues: boolean } {
  const startDay = row.start.slice(0, 10);
  const endDay = row.end.slice(0, 10);
  const hm = (t: string) => t.slice(11, 16);
  if (startDay === endDay) return { time: row.end > row.start ? `${hm(row.start)} – ${hm(row.end)}` : hm(row.start), continues: false };
  if (day === startDay) return { time: `From ${hm(row.start)}`, continues: true };
  return { time: day === endDay ? `Until ${hm(row.end)}` : `All day (until ${mediumDay(endDay)})`, continues: true };
}

/** Page numbers around the current one, with gaps: 1 … 4 5 [6] 7 8 … 20. */
function pageWindow(current: number, total: number): Array<number | null> {
  const out: Array<number | null> = [];
  for (let p = 1; p <= total; p++) {
    if (p === 1 || p === total || Math.abs(p - current) <= 2) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

export function renderFragments(input: {
  page: CalendarPage;
  args: CalendarArgs;
  basePath: string;
  venues: Map<number, VenueRow>;
  termName: (taxonomy: string, id: number) => string | undefined;
  active: readonly ActiveTerm[];
}): Fragments {
  const { page, args, basePath, venues } = input;
  const href = (override: { page?: number; past?: boolean }) => `${basePath}${stateQuery(args, override)}`;
  const days = page.days.map((group) => ({
    day: group.day,
    label: longDay(group.day),
    events: group.events.map((row): EventView => {
      const venue = row.venueId !== null ? venues.get(row.venueId) : undefined;
      const terms: EventView['terms'] = [];
      for (const [taxonomy, ids] of Object.entries(row.terms)) {
        for (const id of ids) {
          const name = input.termName(taxonomy, id);
          if (name) terms.push({ taxonomy, name });
        }
      }
      return {
        id: row.id,
        title: row.title,
        link: row.link,
        excerpt: row.excerpt,
        ...timeOf(row, group.day),
        startIso: row.start.replace(' ', 'T'),
        venue: venue ? { name: venue.name, city: venue.city } : null,
        ticketUrl: row.ticketUrl,
        price: row.price,
        terms,
      };
    }),
  }));
  const empty = page.totalEvents === 0 ? (args.past ? 'No past events match.' : 'No upcoming events match.') : 'No events on this page.';
  const range =
    args.dateStart || args.dateEnd
      ? `${args.dateStart ? mediumDay(args.dateStart) : '…'} – ${args.dateEnd ? mediumDay(args.dateEnd) : '…'}`
      : '';
  return {
    html: renderList({ days, empty }),
    pagination: renderPagination({
      totalPages: page.totalPages,
      prev: page.page > 1 && page.page <= page.totalPages ? { page: page.page - 1, href: href({ page: page.page - 1 }) } : null,
      next: page.page < page.totalPages ? { page: page.page + 1, href: href({ page: page.page + 1 }) } : null,
      pages: pageWindow(page.page, page.totalPages).map((p) =>
        p === null
          ? { page: 0, href: '', current: false, gap: true }
          : { page: p, href: href({ page: p }), current: p === page.page, gap: false },
      ),
    }),
    navigation: renderNavigation({
      past: args.past,
      upcomingHref: href({ page: 1, past: false }),
      pastHref: href({ page: 1, past: true }),
      range,
    }),
    counter: renderCounter({ total: page.totalEvents, page: page.page, totalPages: page.totalPages }),
    active: renderActive({
      filters: input.active.map((term) => {
        // The same view without this one term, from its first page (the selection changes).
        const rest = { ...args.taxFilter, [term.taxonomy]: (args.taxFilter[term.taxonomy] ?? []).filter((id) => id !== term.id) };
        return { ...term, href: `${basePath}${stateQuery({ ...args, taxFilter: rest }, { page: 1 })}` };
      }),
    }),
  };
}
