/** The events/v1 surface and the calendar page at the site root. */
import { Readable } from 'node:stream';
import { Type } from '../../sdk/index.js';
import { defineRoute, defineSurface, page, stream, type SurfaceDefinition } from '../../sdk/index.js';
import { CALENDAR_SCRIPT } from './calendar-script.js';
import type { Geocoder } from './geocode.js';
import type { VenueRow } from './model.js';
import { PAGE_CSP, renderPage } from './page.js';
import { calendarResponses, duplicateResponses, filtersResponses, geocodeResponses, venueResponses } from './responses.js';
import { calendarQuery, cleanSearch, filtersQuery, readCalendarArgs, readDates, readTaxonomyMap } from './schemas.js';
import type { EventsService } from './service.js';
import { findDuplicates } from './venue-match.js';
import { eventsError } from './errors.js';

const editor = { capability: 'edit_posts' } as const;

function venueView(venue: VenueRow, link: string, upcoming: number) {
  const { latitude, longitude, ...rest } = venue;
  return {
    ...rest,
    coordinates: latitude !== null && longitude !== null ? { latitude, longitude } : null,
    link,
    upcoming_event_count: upcoming,
  };
}

export function eventsSurface(service: EventsService, geocoder: Geocoder, linkOf: (id: number) => string): SurfaceDefinition {
  return defineSurface({
    id: 'events',
    namespace: 'events/v1',
    routes: [
      {
        method: 'GET',
        path: '/events/calendar',
        permission: 'public',
        summary: 'Calendar fragments (html, pagination, navigation, counter) for the given search, dates, taxonomy filters and page',
        schema: { query: calendarQuery, responses: calendarResponses },
        async handle(request) {
          const args = readCalendarArgs(request.query, service.taxonomyNames());
          const { page: result, fragments } = await service.calendar(args);
          return {
            success: true,
            ...fragments,
            data: {
              page: result.page,
              total_pages: result.totalPages,
              total_events: result.totalEvents,
              page_events: result.pageEvents,
              past: args.past,
              days: result.days.map((d) => d.day),
            },
          };
        },
      },
      {
        method: 'GET',
        path: '/events/filters',
        permission: 'public',
        summary: 'Terms of the event taxonomies with counts, parents and dependencies in the current calendar context',
        schema: { query: filtersQuery, responses: filtersResponses },
        async handle(request) {
          const q = request.query;
          const args = {
            search: '',
            ...readDates(q),
            taxFilter: readTaxonomyMap(q, 'active', service.taxonomyNames()),
            archive: null,
            past: q.past === true,
          };
          return { success: true, ...(await service.filters(args, (q.context as 'modal' | 'inline' | undefined) ?? 'modal')) };
        },
      },
      defineRoute({
        method: 'GET',
        path: '/events/venues/check-duplicate',
        permission: 'public',
        summary: 'Venues that look like the one described (normalized name and address), with the reasons',
        schema: {
          query: Type.Object({
            name: Type.Optional(Type.String({ maxLength: 200 })),
            address: Type.Optional(Type.String({ maxLength: 300 })),
            city: Type.Optional(Type.String({ maxLength: 100 })),
          }),
          responses: duplicateResponses,
        },
        async handle(request) {
          const q = request.query;
          const input = { name: cleanSearch(q.name), address: cleanSearch(q.address), city: cleanSearch(q.city) };
          // "Blue Note, 131 West 3rd Street" in the name alone: the part after the first comma is the address.
          if (!input.address && input.name.includes(',')) {
            const at = input.name.indexOf(',');
            input.address = input.name.slice(at + 1).trim();
            input.name = input.name.slice(0, at).trim();
          }
          if (!input.name && !input.address) throw eventsError('venue_check_empty');
          const snapshot = await service.index.current();
          const matches = findDuplicates(snapshot.venues.values(), input).slice(0, 20);
          const duplicates = await Promise.all(
            matches.map(async (m) => ({
              venue: venueView(m.venue, linkOf(m.venue.id), await service.upcomingAt(m.venue.id)),
              reasons: m.reasons,
              score: m.score,
            })),
          );
          return { success: true, duplicates };
        },
      }),
      {
        method: 'GET',
        path: '/events/venues/{id}',
        permission: 'public',
        summary: 'A venue: name, address, coordinates, website and its upcoming event count',
        schema: {
          params: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
          },
          responses: venueResponses,
        },
        async handle(request) {
          const id = request.params.id as number;
          const venue = await service.venue(id);
          if (!venue) throw eventsError('venue_not_found', { message: `No published venue ${id}.` });
          return { success: true, venue: venueView(venue, linkOf(id), await service.upcomingAt(id)) };
        },
      },
      defineRoute({
        method: 'POST',
        path: '/events/geocode/search',
        permission: editor,
        summary: 'Address text → candidates with coordinates (a Nominatim-shaped service; one request per second across hosts; cached)',
        schema: {
          body: Type.Object(
            {
              address: Type.String({ minLength: 2, maxLength: 300, pattern: '\\S' }),
              limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 5 })),
              // ISO 3166-1 alpha-2 codes are written upper case ("DE"); either case is taken, and the geocoder is sent lower case.
              countrycodes: Type.Optional(Type.String({ maxLength: 29, pattern: '^[A-Za-z]{2}(,[A-Za-z]{2}){0,9}$' })),
            },
            { additionalProperties: false },
          ),
          responses: geocodeResponses,
        },
        async handle(request) {
          const body = request.body;
          const result = await geocoder.search({
            address: body.address,
            limit: body.limit ?? 5,
            ...(body.countrycodes ? { countrycodes: body.countrycodes } : {}),
          });
          return { success: true, ...result };
        },
      }),
    ],
  });
}

/** The page and its script, at the site root (outside the API prefix). */
export function pageSurface(service: EventsService, apiBase: string): SurfaceDefinition {
  const path = service.settings.page_path;
  return defineSurface({
    id: 'events-page',
    mount: 'site-root',
    routes: [
      {
        method: 'GET',
        path,
        permission: 'public',
        credentials: 'ignored',
        summary: 'The events calendar page (first page server-rendered; calendar.js swaps in the fragments)',
        schema: {
          query: calendarQuery,
          responses: { 200: { type: 'string', contentMediaType: 'text/html' }, 404: calendarResponses[404] },
        },
        async handle(request) {
          const args = readCalendarArgs(request.query, service.taxonomyNames());
          const { fragments } = await service.calendar(args);
          const html = renderPage({ title: service.settings.page_title, path, api: apiBase, args, fragments });
          return page(200, html, {
            'Content-Security-Policy': PAGE_CSP,
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'no-cache',
            'Referrer-Policy': 'same-origin',
          });
        },
      },
      {
        method: 'GET',
        path: `${path}/calendar.js`,
        permission: 'public',
        credentials: 'ignored',
        summary: "The calendar page's script",
        schema: { responses: { 200: { type: 'string', contentMediaType: 'text/javascript' } } },
        handle() {
          const bytes = Buffer.from(CALENDAR_SCRIPT);
          return stream(200, Readable.from([bytes]), {
            'Content-Type': 'text/javascript; charset=utf-8',
            'Content-Length': String(bytes.length),
            'Cache-Control': 'public, max-age=300',
            'X-Content-Type-Options': 'nosniff',
          });
        },
      },
    ],
  });
}
