/**
 * The events calendar: the `event` post type (schedule in meta start_date/end_date, venue
 * in meta venue_id, written through {prefix}/wp/v2/events), the `venue` post type
 * ({prefix}/wp/v2/venues, address and coordinates in meta), the event taxonomies, the
 * `event` publish handler, the events/v1 surface (fragments, filters, venues, geocoding)
 * and a calendar page at the site root. See docs/events.md.
 */
import { defineHandler, definePlugin, definePostType, defineTaxonomy, PluginError, services, type Collection } from '../../sdk/index.js';
import { EventIndex } from './event-index.js';
import { Geocoder, type GeocodeSettings } from './geocode.js';
import { isTimeZone } from './local-time.js';
import { EVENT_META_SCHEMA, EVENT_TAXONOMIES, EVENT_TYPE, VENUE_META_SCHEMA, VENUE_TYPE } from './model.js';
import { eventPublishSchema, publishEvents, type EventPublishSettings } from './publish.js';
import { eventsSurface, pageSurface } from './routes.js';
import { EventsService, type EventsSettings } from './service.js';

type Settings = EventsSettings & GeocodeSettings;

export default definePlugin({
  id: 'events',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description:
    'Events calendar: event and venue post types, event taxonomies, the `event` publish handler, events/v1 (calendar fragments, filters, venues, geocoding) and the /events page.',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      timezone: { type: 'string', minLength: 1, maxLength: 64, default: 'UTC' },
      page_path: { type: 'string', pattern: '^/[a-z0-9][a-z0-9/_-]{0,99}$', default: '/events' },
      page_title: { type: 'string', minLength: 1, maxLength: 100, default: 'Events' },
      events_per_page: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
      excluded_taxonomies: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 32 }, default: [] },
      geocode_base_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://nominatim.openstreetmap.org' },
      geocode_user_agent: { type: 'string', maxLength: 200, default: '' },
      geocode_email: { type: 'string', maxLength: 200, default: '' },
      // Nominatim's policy: at most one request per second. Slower is allowed, faster is not.
      geocode_min_interval_ms: { type: 'integer', minimum: 1000, maximum: 60000, default: 1000 },
      geocode_max_wait_ms: { type: 'integer', minimum: 0, maximum: 60000, default: 5000 },
      geocode_cache_days: { type: 'integer', minimum: 1, maximum: 365, default: 30 },
      geocode_timeout_ms: { type: 'integer', minimum: 100, maximum: 60000, default: 10000 },
    },
  },
  deps: {
    routes: services.routes,
    handlers: services.handlers,
    postTypes: services.postTypes,
    taxonomies: services.taxonomies,
    content: services.content,
    contentTypes: services.contentTypes,
    store: services.store,
    fetch: services.fetch,
    clock: services.clock,
    hostInfo: services.hostInfo,
    log: services.logger,
    settings: services.configOf<Settings>(),
  },
  async setup({ routes, handlers, postTypes, taxonomies, content, contentTypes, store, fetch, clock, hostInfo, log, settings }) {
    if (!isTimeZone(settings.timezone))
      throw new PluginError('events', `timezone '${settings.timezone}' is not a time zone name this Node knows (e.g. Europe/Berlin).`);
    const page = settings.page_path.replace(/\/+$/, '') || '/events';

    postTypes.add(
      definePostType({
        name: EVENT_TYPE,
        label: 'Events',
        rest_base: 'events',
        taxonomies: EVENT_TAXONOMIES.map((t) => t.name),
        meta: EVENT_META_SCHEMA,
      }),
    );
    postTypes.add(definePostType({ name: VENUE_TYPE, label: 'Venues', rest_base: 'venues', meta: VENUE_META_SCHEMA }));
    for (const t of EVENT_TAXONOMIES) taxonomies.add(defineTaxonomy({ ...t, post_types: [EVENT_TYPE] }));

    const link = (id: number) => `${hostInfo.publicUrl().replace(/\/+$/, '')}/?p=${id}`;
    const index = new EventIndex(content, link);
    const service = new EventsService(index, content, contentTypes, clock, { ...settings, page_path: page });

    const slots = store.collection('geocode_slots') as Collection<{ _id: string; next_at: number }>;
    const cache = store.collection('geocode_cache') as Collection<{ _id: string; query: string; candidates: never[]; expires_at: Date }>;
    const userAgent = settings.geocode_user_agent || `Flowhost-Events/1.0 (+${hostInfo.publicUrl()})`;
    const geocoder = new Geocoder(slots as never, cache as never, fetch, clock, log, { ...settings, userAgent });

    routes.add(eventsSurface(service, geocoder, link));
    routes.add(pageSurface(service, `${hostInfo.apiPrefix}/events/v1`));

    handlers.add(
      defineHandler<EventPublishSettings>({
        slug: 'event',
        type: 'publish',
        label: 'Event',
        description:
          'Creates (or, for an item seen before, updates) a calendar event per item: start/end, venue, ticket URL, price, categories, locations, artists.',
        settings: eventPublishSchema,
        publish: (ctx, handlerSettings, packets) => publishEvents(ctx.content, settings.timezone, handlerSettings, packets, link),
      }),
    );
  },
});
