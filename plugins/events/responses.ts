/** The bodies the events/v1 routes answer (checked in tests; published in openapi.json). */
import { errorBody, successBody, type JsonSchema } from '../../sdk/index.js';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const num: JsonSchema = { type: 'number' };
const obj = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: Object.keys(properties),
  properties,
  additionalProperties: false,
});
const intList: JsonSchema = { type: 'array', items: int };

export const calendarResponses = {
  200: successBody({
    html: str,
    pagination: str,
    navigation: str,
    counter: str,
    /** The applied taxonomy filters, each a link that removes it (empty when none). */
    active: str,
    data: obj({ page: int, total_pages: int, total_events: int, page_events: int, past: bool, days: { type: 'array', items: str } }),
  }),
  404: errorBody('event_term_not_found'),
};

export const filtersResponses = {
  200: successBody({
    context: str,
    total: int,
    taxonomies: {
      type: 'array',
      items: obj({
        taxonomy: str,
        label: str,
        hierarchical: bool,
        terms: { type: 'array', items: obj({ id: int, name: str, slug: str, parent: int, count: int, active: bool }) },
      }),
    },
    parents: { type: 'object', additionalProperties: { type: 'object', additionalProperties: int } },
    dependencies: {
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: { type: 'object', additionalProperties: intList } },
    },
  }),
};

export const venueSchema = obj({
  id: int,
  name: str,
  slug: str,
  address: str,
  city: str,
  region: str,
  postal_code: str,
  country: str,
  coordinates: { oneOf: [{ type: 'null' }, obj({ latitude: num, longitude: num })] },
  website: str,
  link: str,
  upcoming_event_count: int,
});

export const venueResponses = { 200: successBody({ venue: venueSchema }), 404: errorBody('venue_not_found') };

export const duplicateResponses = {
  200: successBody({
    duplicates: {
      type: 'array',
      items: obj({
        venue: venueSchema,
        reasons: { type: 'array', items: { enum: ['same_name', 'similar_name', 'same_address', 'similar_address'] } },
        score: num,
      }),
    },
  }),
  400: errorBody('venue_check_empty'),
};

const candidate = obj({
  display_name: str,
  latitude: num,
  longitude: num,
  type: str,
  osm_type: str,
  osm_id: { type: ['integer', 'null'] },
  address: obj({ house_number: str, road: str, city: str, region: str, postal_code: str, country: str, country_code: str }),
});

export const geocodeResponses = {
  200: successBody({ cached: bool, candidates: { type: 'array', items: candidate } }),
  429: errorBody('geocode_rate_limited'),
  502: errorBody('geocode_unavailable'),
};
