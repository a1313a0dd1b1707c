/** The events plugin's error codes, declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const eventsError = definePluginErrors('events', {
  geocode_unavailable: { status: 502, message: 'Geocoding is unavailable.' },
  geocode_rate_limited: { status: 429, message: 'Geocoding is busy; try again shortly.' },
  venue_check_empty: { status: 400, message: 'Give a venue name or address to check.' },
  venue_not_found: { status: 404, message: 'No such published venue.' },
  event_term_not_found: { status: 404, message: 'No such term.' },
});
