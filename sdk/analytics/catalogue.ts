/**
 * The four analytics tools the spec names, their actions and parameters (spec 02,
 * "Analytics"). Known to the surface even when a tool's plugin is not in the build: an id
 * listed here without a registered tool is a 500 `ability_not_found`, anything else a
 * 400 `invalid_tool`. The tool plugins build their parameter schemas from here, so the
 * surface, the chat tools and the CLI options cannot drift apart.
 */
import type { JsonSchema } from '../index.js';

export type ToolId = 'search-stats' | 'crawler-stats' | 'site-analytics' | 'page-performance';

export interface ParameterSpec {
  schema: JsonSchema;
  describe: string;
}

export interface ToolCatalogueEntry {
  id: ToolId;
  /** The chat tool's name (function names: no '-' to stay portable across providers). */
  chatName: string;
  label: string;
  actions: readonly string[];
  parameters: Readonly<Record<string, ParameterSpec>>;
  /** The configuration fields `PUT /analytics/{tool}/config` takes; secrets are sealed. */
  config: Readonly<Record<string, { secret: boolean; describe: string }>>;
}

const DATE: JsonSchema = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10 };
const TEXT: JsonSchema = { type: 'string', minLength: 1, maxLength: 500 };
const URL_TEXT: JsonSchema = { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 };

export const TOOL_CATALOGUE: Readonly<Record<ToolId, ToolCatalogueEntry>> = {
  'search-stats': {
    id: 'search-stats',
    chatName: 'search_stats',
    label: 'Search visibility (Search Console API)',
    actions: [
      'query_stats',
      'page_stats',
      'query_page_stats',
      'date_stats',
      'inspect_url',
      'list_sitemaps',
      'get_sitemap',
      'submit_sitemap',
    ],
    parameters: {
      start_date: { schema: DATE, describe: 'YYYY-MM-DD (UTC); default 28 days ago' },
      end_date: { schema: DATE, describe: 'YYYY-MM-DD (UTC); default 3 days ago' },
      limit: { schema: { type: 'integer', minimum: 1, maximum: 25000 }, describe: 'rows; default 25, max 25000' },
      url_filter: { schema: TEXT, describe: 'only URLs containing this text' },
      query_filter: { schema: TEXT, describe: 'only queries containing this text' },
      url: { schema: URL_TEXT, describe: 'the page for inspect_url' },
      sitemap_url: { schema: URL_TEXT, describe: 'the sitemap for get_sitemap and submit_sitemap' },
    },
    config: {
      service_account: { secret: true, describe: "the service account's JSON key file" },
      site_url: { secret: false, describe: 'the property as the search console names it (https://example.com/ or sc-domain:example.com)' },
    },
  },
  'crawler-stats': {
    id: 'crawler-stats',
    chatName: 'crawler_stats',
    label: 'Crawler statistics (Bing Webmaster API)',
    actions: ['query_stats', 'traffic_stats', 'page_stats', 'crawl_stats'],
    parameters: {
      limit: { schema: { type: 'integer', minimum: 1, maximum: 1000 }, describe: 'rows; default 20, max 1000' },
    },
    config: {
      api_key: { secret: true, describe: 'the webmaster API key' },
      site_url: { secret: false, describe: 'the verified site, e.g. https://example.com/' },
    },
  },
  'site-analytics': {
    id: 'site-analytics',
    chatName: 'site_analytics',
    label: 'Site analytics (GA4 Data API)',
    actions: ['page_stats', 'traffic_sources', 'date_stats', 'realtime', 'top_events', 'user_demographics'],
    parameters: {
      property_id: {
        schema: { type: 'string', pattern: '^[0-9]{1,20}$', maxLength: 20 },
        describe: 'the analytics property id; overrides the configured one',
      },
      start_date: { schema: DATE, describe: 'YYYY-MM-DD (UTC); default 28 days ago' },
      end_date: { schema: DATE, describe: 'YYYY-MM-DD (UTC); default yesterday' },
      limit: { schema: { type: 'integer', minimum: 1, maximum: 10000 }, describe: 'rows; default 25, max 10000' },
      page_filter: { schema: TEXT, describe: 'only pages whose path contains this text' },
    },
    config: {
      service_account: { secret: true, describe: "the service account's JSON key file" },
      property_id: { secret: false, describe: 'the GA4 property id (digits)' },
    },
  },
  'page-performance': {
    id: 'page-performance',
    chatName: 'page_performance',
    label: 'Page performance (PageSpeed Insights API v5)',
    actions: ['analyze', 'performance', 'opportunities'],
    parameters: {
      url: { schema: URL_TEXT, describe: "the page; default the site's home address" },
      strategy: { schema: { type: 'string', enum: ['mobile', 'desktop'] }, describe: 'mobile (default) or desktop' },
    },
    config: {
      api_key: { secret: true, describe: 'the PageSpeed Insights API key' },
    },
  },
};

export const TOOL_IDS = Object.keys(TOOL_CATALOGUE) as ToolId[];

export function isToolId(value: string): value is ToolId {
  return Object.hasOwn(TOOL_CATALOGUE, value);
}

/** The JSON Schema of a tool's arguments: `action` (required) plus its parameters, nothing else. */
export function parametersSchema(entry: ToolCatalogueEntry): JsonSchema {
  const properties: Record<string, JsonSchema> = { action: { type: 'string', enum: [...entry.actions], description: 'what to report' } };
  for (const [name, spec] of Object.entries(entry.parameters))
    properties[name] = { ...(spec.schema as object), description: spec.describe } as JsonSchema;
  return { type: 'object', required: ['action'], properties, additionalProperties: false };
}

export const allowedActions = (entry: { actions: readonly string[] }): string => `Allowed actions: ${entry.actions.join(', ')}.`;
