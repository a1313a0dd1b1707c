/**
 * The published events and venues, held in memory per host and rebuilt when the store
 * says they changed. Events are written through the generic wp/v2 routes (and the `event`
 * publish handler), which this plugin does not see, so every read first asks the store
 * for a fingerprint of each type (how many posts, the last change): two indexed queries,
 * and another host's write is seen on the next request. The calendar then filters and
 * groups rows in memory, which keeps a page of 10,000 events well under 20 ms.
 */
import { htmlToPlainText, type ContentStore, type Post } from '../../sdk/index.js';
import { eventDays } from './calendar-query.js';
import { parseLocal } from './local-time.js';
import { EVENT_TYPE, VENUE_TYPE, type EventRow, type VenueRow } from './model.js';

const BATCH = 100;

export interface Snapshot {
  events: EventRow[];
  venues: Map<number, VenueRow>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const coordinate = (value: unknown, bound: number): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= bound ? n : null;
};

export function venueRow(post: Post): VenueRow {
  const meta = post.meta;
  return {
    id: post.post_id,
    name: post.title.trim(),
    slug: post.slug,
    address: text(meta.address),
    city: text(meta.city),
    region: text(meta.region),
    postal_code: text(meta.postal_code),
    country: text(meta.country),
    latitude: coordinate(meta.latitude, 90),
    longitude: coordinate(meta.longitude, 180),
    website: text(meta.website),
  };
}

/** An event row, or null when its start_date is missing or not a date (such a post is not on the calendar). */
export function eventRow(post: Post, venues: Map<number, VenueRow>, link: string): EventRow | null {
  const start = parseLocal(post.meta.start_date);
  if (!start) return null;
  const endGiven = parseLocal(post.meta.end_date);
  const end = endGiven && endGiven >= start ? endGiven : start;
  const venueId = Number(post.meta.venue_id);
  const venue = Number.isSafeInteger(venueId) ? venues.get(venueId) : undefined;
  // The title as written, shown as text (escaped by the templates): `<script>` in a title is a title, not markup.
  const title = post.title.trim();
  // Text for searching and the short excerpt (escaped by the templates, never HTML); the
  // content is converted once, as a rebuild converts every event.
  const content = htmlToPlainText(post.content);
  const body = post.excerpt ? htmlToPlainText(post.excerpt) : content;
  return {
    id: post.post_id,
    title,
    link,
    excerpt: body.length > 200 ? `${body.slice(0, 199).trimEnd()}…` : body,
    start,
    end,
    days: eventDays(start, end),
    venueId: venue ? venue.id : null,
    ticketUrl: /^https?:\/\//i.test(text(post.meta.ticket_url)) ? text(post.meta.ticket_url) : '',
    price: text(post.meta.price).slice(0, 100),
    terms: post.terms,
    haystack: `${title} ${content} ${venue?.name ?? ''}`.toLowerCase(),
  };
}

export class EventIndex {
  private snapshot: Snapshot | null = null;
  private fingerprint = '';
  private loading: Promise<Snapshot> | null = null;

  constructor(
    private readonly content: ContentStore,
    private readonly linkOf: (postId: number) => string,
  ) {}

  /** The current snapshot, rebuilt first when either type changed in the store. */
  async current(): Promise<Snapshot> {
    const print = `${await this.typePrint(EVENT_TYPE)}|${await this.typePrint(VENUE_TYPE)}`;
    if (this.snapshot && print === this.fingerprint) return this.snapshot;
    // One rebuild at a time; callers that arrive meanwhile share it.
    if (!this.loading) {
      this.loading = this.build()
        .then((snapshot) => {
          this.snapshot = snapshot;
          this.fingerprint = print;
          return snapshot;
        })
        .finally(() => {
          this.loading = null;
        });
    }
    return this.loading;
  }

  private async typePrint(postType: string): Promise<string> {
    // Every status (no status filter), so the (post_type, updated_at) index answers it.
    const { items, total } = await this.content.findPosts({ post_type: postType, orderby: 'updated_at', order: 'desc', per_page: 1 });
    return `${total}:${items[0]?.updated_at.getTime() ?? 0}:${items[0]?.post_id ?? 0}`;
  }

  private async all(postType: string): Promise<Post[]> {
    const out: Post[] = [];
    for (let offset = 0; ; offset += BATCH) {
      const { items } = await this.content.findPosts({
        post_type: postType,
        status: 'publish',
        orderby: 'post_id',
        order: 'asc',
        per_page: BATCH,
        offset,
      });
      out.push(...items);
      if (items.length < BATCH) return out;
    }
  }

  private async build(): Promise<Snapshot> {
    const venues = new Map((await this.all(VENUE_TYPE)).map((post) => [post.post_id, venueRow(post)]));
    const events: EventRow[] = [];
    for (const post of await this.all(EVENT_TYPE)) {
      const row = eventRow(post, venues, this.linkOf(post.post_id));
      if (row) events.push(row);
    }
    events.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id));
    return { events, venues };
  }
}
