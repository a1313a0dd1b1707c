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
