/** What the calendar reads of events and venues, and the names it registers. */

export const EVENT_TYPE = 'event';
export const VENUE_TYPE = 'venue';
/** The event taxonomies this plugin registers (other plugins may add more for `event`). */
export const EVENT_TAXONOMIES = [
  { name: 'event_category', label: 'Categories', rest_base: 'event-categories', hierarchical: true },
  { name: 'event_location', label: 'Locations', rest_base: 'event-locations', hierarchical: true },
  { name: 'event_artist', label: 'Artists', rest_base: 'event-artists', hierarchical: false },
] as const;

/** One published event as the calendar needs it (kept in memory, see event-index.ts). */
export interface EventRow {
  id: number;
  title: string;
  link: string;
  excerpt: string;
  /** Site-local wall times `YYYY-MM-DD HH:MM:SS`; end ≥ start. */
  start: string;
  end: string;
  /** The site-local days it covers (YYYY-MM-DD, in order), computed once. */
  days: string[];
  venueId: number | null;
  ticketUrl: string;
  price: string;
  terms: Record<string, number[]>;
  /** Lower-case title, text and venue name, for event_search. */
  haystack: string;
}

export interface VenueRow {
  id: number;
  name: string;
  slug: string;
  address: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
  website: string;
}

/** The venue meta keys, as written through {prefix}/wp/v2/venues. */
export const VENUE_META = ['address', 'city', 'region', 'postal_code', 'country', 'latitude', 'longitude', 'website'] as const;

const wallTime = {
  type: 'string',
  maxLength: 19,
  pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?)?$',
  description: 'Site wall time, YYYY-MM-DD HH:MM:SS',
} as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const webUrl = { type: 'string', maxLength: 2000, pattern: '^https?://' } as const;

/** Typed meta of an event: wp/v2 refuses a start_date the calendar could not read. */
export const EVENT_META_SCHEMA = {
  start_date: wallTime,
  end_date: wallTime,
  venue_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  ticket_url: webUrl,
  price: text(100),
};

export const VENUE_META_SCHEMA = {
  address: text(300),
  city: text(100),
  region: text(100),
  postal_code: text(20),
  country: text(100),
  latitude: { type: 'number', minimum: -90, maximum: 90 },
  longitude: { type: 'number', minimum: -180, maximum: 180 },
  website: webUrl,
};
