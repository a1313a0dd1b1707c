/**
 * Request schemas of the events/v1 routes and the reading of their arguments. Taxonomy
 * maps come either as JSON text (`tax_filter={"event_category":[3]}`) or PHP-style, as
 * jQuery.param and URLSearchParams-based front ends send them
 * (`tax_filter[event_category][]=3`); both end up as one checked map.
 */
import { type JsonSchema, apiError } from '../../sdk/index.js';
import { isDay } from './local-time.js';
import type { CalendarArgs } from './calendar-query.js';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const TAXONOMY_KEY = '[a-z][a-z0-9_]{0,31}';
// Empty means not given: a plain HTML form sends its empty date fields.
const day: JsonSchema = { type: 'string', maxLength: 10, pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' };
const termIds: JsonSchema = { type: 'array', maxItems: 100, items: { type: 'integer', minimum: 1, maximum: MAX_ID } };

/** `name` as JSON text, or `name[taxonomy][]=id` keys. */
function taxonomyMapParams(name: string): { properties: Record<string, JsonSchema>; patternProperties: Record<string, JsonSchema> } {
  return {
    properties: { [name]: { type: 'string', maxLength: 4000 } },
    patternProperties: { [`^${name}\\[${TAXONOMY_KEY}\\]$`]: termIds },
  };
}

const tax = taxonomyMapParams('tax_filter');
const active = taxonomyMapParams('active');

export const calendarQuery: JsonSchema = {
  type: 'object',
  properties: {
    event_search: { type: 'string', maxLength: 200 },
    date_start: day,
    date_end: day,
    ...tax.properties,
    archive_taxonomy: { type: 'string', maxLength: 32, pattern: `^${TAXONOMY_KEY}$` },
    archive_term_id: { type: 'integer', minimum: 1, maximum: MAX_ID },
    paged: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
    past: { type: 'boolean', default: false },
  },
  patternProperties: tax.patternProperties,
};

export const filtersQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...active.properties,
    context: { type: 'string', enum: ['modal', 'inline'], default: 'modal' },
    date_start: day,
    date_end: day,
    past: { type: 'boolean', default: false },
  },
  patternProperties: active.patternProperties,
};

const invalid = (param: string, message: string) =>
  apiError('rest_invalid_param', { message: `Invalid parameter(s): ${param}`, data: { params: { [param]: message } } });

/** The taxonomy map of `name` from either form, each taxonomy checked against the event taxonomies. */
export function readTaxonomyMap(query: Record<string, unknown>, name: string, taxonomies: ReadonlySet<string>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const add = (taxonomy: string, ids: unknown) => {
    if (!taxonomies.has(taxonomy)) throw invalid(name, `${taxonomy} is not an event taxonomy.`);
    const list = Array.isArray(ids) ? ids : [ids];
    if (list.length > 100 || !list.every((id) => Number.isSafeInteger(id) && (id as number) > 0))
      throw invalid(name, `${taxonomy} must be a list of at most 100 term ids.`);
    out[taxonomy] = [...new Set([...(out[taxonomy] ?? []), ...(list as number[])])];
  };
  const raw = query[name];
  if (typeof raw === 'string' && raw.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw invalid(name, `${name} must be a JSON object of taxonomy → term ids.`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw invalid(name, `${name} must be a JSON object of taxonomy → term ids.`);
    for (const [taxonomy, ids] of Object.entries(parsed as Record<string, unknown>)) add(taxonomy, ids);
  }
  const prefix = `${name}[`;
  for (const [key, ids] of Object.entries(query)) if (key.startsWith(prefix)) add(key.slice(prefix.length, -1), ids);
  return out;
}

export function readDates(query: Record<string, unknown>): { dateStart: string | null; dateEnd: string | null } {
  const dateStart = (query.date_start as string | undefined) || null;
  const dateEnd = (query.date_end as string | undefined) || null;
  if (dateStart && !isDay(dateStart)) throw invalid('date_start', 'date_start is not a calendar date (YYYY-MM-DD).');
  if (dateEnd && !isDay(dateEnd)) throw invalid('date_end', 'date_end is not a calendar date (YYYY-MM-DD).');
  if (dateStart && dateEnd && dateEnd < dateStart) throw invalid('date_end', 'date_end is before date_start.');
  return { dateStart, dateEnd };
}

/** Free text: control characters out, whitespace collapsed. */
export const cleanSearch = (value: unknown) =>
  typeof value === 'string'
    ? value
        .replace(/[\u0000-\u001f\u007f]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';

export function readCalendarArgs(query: Record<string, unknown>, taxonomies: ReadonlySet<string>): CalendarArgs {
  const archiveTaxonomy = query.archive_taxonomy as string | undefined;
  const archiveTerm = query.archive_term_id as number | undefined;
  if ((archiveTaxonomy === undefined) !== (archiveTerm === undefined))
    throw invalid(
      archiveTaxonomy === undefined ? 'archive_taxonomy' : 'archive_term_id',
      'archive_taxonomy and archive_term_id go together.',
    );
  if (archiveTaxonomy !== undefined && !taxonomies.has(archiveTaxonomy))
    throw invalid('archive_taxonomy', `${archiveTaxonomy} is not an event taxonomy.`);
  return {
    search: cleanSearch(query.event_search),
    ...readDates(query),
    taxFilter: readTaxonomyMap(query, 'tax_filter', taxonomies),
    archive: archiveTaxonomy !== undefined ? { taxonomy: archiveTaxonomy, termId: archiveTerm! } : null,
    page: (query.paged as number | undefined) ?? 1,
    past: query.past === true,
  };
}
