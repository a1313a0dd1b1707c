/**
 * crawler-stats: a webmaster tool's JSON API with an API key, in the Bing Webmaster API
 * wire format (https://learn.microsoft.com/en-us/dotnet/api/microsoft.bing.webmaster.api.interfaces.iwebmasterapi):
 * GET {base}/webmaster/api.svc/json/{Method}?siteUrl=…&apikey=…, answered `{ "d": [rows] }`.
 * The API has no row limit of its own: `limit` keeps the first rows as sent.
 */
import { TOOL_CATALOGUE, invalidParameter, limitOf, callJson, defineAnalyticsToolPlugin } from '../../sdk/analytics/index.js';

const entry = TOOL_CATALOGUE['crawler-stats'];

const METHODS: Record<string, string> = {
  query_stats: 'GetQueryStats',
  traffic_stats: 'GetRankAndTrafficStats',
  page_stats: 'GetPageStats',
  crawl_stats: 'GetCrawlStats',
};

export default defineAnalyticsToolPlugin({
  entry,
  description: 'Crawler and search traffic statistics from the webmaster tool: queries, traffic, pages, crawling.',
  defaultBaseUrl: 'https://ssl.bing.com',
  prepare(action, args) {
    if (!(action in METHODS)) throw invalidParameter(entry, `Invalid action '${action}'.`);
    return { limit: limitOf(args, 20) };
  },
  missing(config) {
    return ['api_key', 'site_url'].filter((f) => !config[f]);
  },
  ttl(_action, configured) {
    return configured;
  },
  async run(action, params, env) {
    const apiKey = env.config.api_key!;
    const siteUrl = env.config.site_url!;
    const query = new URLSearchParams({ siteUrl, apikey: apiKey }).toString();
    const answer = await callJson<{ d?: unknown }>({
      entry,
      service: 'The webmaster API',
      fetch: env.fetch,
      url: `${env.baseUrl}/webmaster/api.svc/json/${METHODS[action]}?${query}`,
      init: { method: 'GET', headers: { accept: 'application/json' } },
      secrets: [apiKey, encodeURIComponent(apiKey)],
    });
    const rows = Array.isArray(answer?.d) ? answer.d : [];
    return { results: rows.slice(0, params.limit as number), fields: { site_url: siteUrl, total_rows: rows.length } };
  },
});
