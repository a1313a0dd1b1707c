/**
 * The calendar's selection: which events a request's arguments pick, and the days they
 * fall on, paged by whole days. Pure functions over the in-memory rows.
 */
import { addDays, daysBetween } from './local-time.js';
import type { EventRow } from './model.js';

export interface CalendarArgs {
  search: string;
  dateStart: string | null;
  dateEnd: string | null;
  /** taxonomy → term ids: an event must carry one of each listed taxonomy's ids. */
  taxFilter: Record<string, number[]>;
  /** `termIds`, when set, is the term and those below it (see term-tree.ts); else the term alone. */
  archive: { taxonomy: string; termId: number; termIds?: number[] } | null;
  page: number;
  past: boolean;
}

export interface DayGroup {
  day: string;
  events: EventRow[];
}

export interface CalendarPage {
  days: DayGroup[];
  page: number;
  totalPages: number;
  /** Distinct events selected (a multi-day event counts once). */
  totalEvents: number;
  /** Distinct events on this page. */
  pageEvents: number;
}

export function matchesTerms(row: EventRow, filter: Record<string, number[]>, skip?: string): boolean {
  for (const [taxonomy, ids] of Object.entries(filter)) {
    if (taxonomy === skip || ids.length === 0) continue;
    const carried = row.terms[taxonomy];
    if (!carried?.some((id) => ids.includes(id))) return false;
  }
  return true;
}

/**
 * The window of site-local days an event is shown on. With a date range the range alone
 * decides (past only reverses the order); without one, upcoming means not yet ended and
 * shows its days from today, past means ended before now and shows its days up to today.
 */
export function shownDays(row: EventRow, args: Pick<CalendarArgs, 'dateStart' | 'dateEnd' | 'past'>, now: string): readonly string[] {
  const all = row.days;
  let from = all[0]!;
  let to = all[all.length - 1]!;
  if (args.dateStart || args.dateEnd) {
    if (args.dateStart && from < args.dateStart) from = args.dateStart;
    if (args.dateEnd && to > args.dateEnd) to = args.dateEnd;
  } else if (!args.past) {
    if (row.end < now) return [];
    const today = now.slice(0, 10);
    if (from < today) from = today;
  } else {
    if (row.end >= now) return [];
  }
  if (from === all[0] && to === all[all.length - 1]) return all;
  // String comparison of YYYY-MM-DD is date order: no Date work per request.
  return all.filter((day) => day >= from && day <= to);
}

/** The site-local days an event covers, computed once per event when the index is built. */
export function eventDays(start: string, end: string): string[] {
  const from = start.slice(0, 10);
  // An event ending at midnight does not spill onto that day.
  let to = end > start && end.slice(11) === '00:00:00' ? addDays(end.slice(0, 10), -1) : end.slice(0, 10);
  if (to < from) to = from;
  return daysBetween(from, to);
}

/** Events passing the non-date filters (search, taxonomies, archive term). */
export function selectRows(rows: readonly EventRow[], args: Omit<CalendarArgs, 'page'>, skipTaxonomy?: string): EventRow[] {
  const needle = args.search.toLowerCase();
  return rows.filter(
    (row) =>
      (!needle || row.haystack.includes(needle)) &&
      matchesTerms(row, args.taxFilter, skipTaxonomy) &&
      (!args.archive ||
        (row.terms[args.archive.taxonomy] ?? []).some((id) => (args.archive!.termIds ?? [args.archive!.termId]).includes(id))),
  );
}

/** The whole selection of one set of arguments (every page), reusable until `validUntil`. */
export interface Grouping {
  byDay: Map<string, EventRow[]>;
  pages: string[][];
  totalEvents: number;
  /**
   * The site-local time before which this grouping stays right: the next end of a
   * selected-by-time event (upcoming ones drop out, past ones come in) or the next midnight
   * (the "from today" clip moves). Null when time does not matter (a date range).
   */
  validUntil: string | null;
}

/** Selected events grouped by day, days in order (reversed for past), then paged: each page takes whole days until it holds at least `perPage` entries. */
export function groupDays(rows: readonly EventRow[], args: Omit<CalendarArgs, 'page'>, now: string, perPage: number): Grouping {
  const byDay = new Map<string, EventRow[]>();
  let totalEvents = 0;
  const timed = !(args.dateStart || args.dateEnd);
  let validUntil: string | null = timed ? `${addDays(now.slice(0, 10), 1)} 00:00:00` : null;
  for (const row of selectRows(rows, args)) {
    if (timed && row.end >= now && row.end < validUntil!) validUntil = row.end;
    const days = shownDays(row, args, now);
    if (days.length) totalEvents++;
    for (const day of days) {
      const list = byDay.get(day);
      if (list) list.push(row);
      else byDay.set(day, [row]);
    }
  }
  const days = [...byDay.keys()].sort();
  if (args.past) days.reverse();
  const pages: string[][] = [];
  let current: string[] = [];
  let count = 0;
  for (const day of days) {
    current.push(day);
    count += byDay.get(day)!.length;
    if (count >= perPage) {
      pages.push(current);
      current = [];
      count = 0;
    }
  }
  if (current.length) pages.push(current);
  return { byDay, pages, totalEvents, validUntil };
}

/** One page of a grouping. Rows are sorted by start, so each day's list is in time order. */
export function pageOf(grouping: Grouping, page: number): CalendarPage {
  const groups = (grouping.pages[page - 1] ?? []).map((day) => ({ day, events: grouping.byDay.get(day)! }));
  return {
    days: groups,
    page,
    totalPages: grouping.pages.length,
    totalEvents: grouping.totalEvents,
    pageEvents: new Set(groups.flatMap((g) => g.events.map((e) => e.id))).size,
  };
}

export function calendarPage(rows: readonly EventRow[], args: CalendarArgs, now: string, perPage: number): CalendarPage {
  return pageOf(groupDays(rows, args, now, perPage), args.page);
}

/** The next moment (site wall time) an upcoming/past split of these rows changes: the next end, or midnight. */
export function nextChange(rows: readonly EventRow[], now: string): string {
  let until = `${addDays(now.slice(0, 10), 1)} 00:00:00`;
  for (const row of rows) if (row.end >= now && row.end < until) until = row.end;
  return until;
}
