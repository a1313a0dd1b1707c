/**
 * search-stats: a search console's Search Analytics query, URL Inspection and Sitemaps
 * APIs, in the Google Search Console wire format
 * (https://developers.google.com/webmaster-tools/v1/api_reference_index), authorized by a
 * service account. One base URL serves all three (searchconsole.googleapis.com answers
 * the webmasters/v3 paths too).
 */
import {
  TOOL_CATALOGUE,
  invalidParameter,
  dateRange,
  limitOf,
  requireParam,
  textOf,
  callJson,
  serviceAccountToken,
  defineAnalyticsToolPlugin,
} from '../../sdk/analytics/index.js';

const entry = TOOL_CATALOGUE['search-stats'];
const SCOPE = 'https://www.googleapis.com/auth/webmasters';
const SERVICE = 'The Search Console API';

/** The Search Analytics dimensions each report action groups by. */
const DIMENSIONS: Record<string, string[]> = {
  query_stats: ['query'],
  page_stats: ['page'],
  query_page_stats: ['query', 'page'],
  date_stats: ['date'],
};

export default defineAnalyticsToolPlugin({
  entry,
  description: 'Search visibility from the search console: queries, pages, dates, URL inspection and sitemaps.',
  defaultBaseUrl: 'https://searchconsole.googleapis.com',
  prepare(action, args, now) {
    if (action in DIMENSIONS) {
      const filters: Record<string, string> = {};
      const url = textOf(args, 'url_filter');
      const query = textOf(args, 'query_filter');
      if (url) filters.url_filter = url;
      if (query) filters.query_filter = query;
      return { ...dateRange(entry, args, now, { startDaysAgo: 28, endDaysAgo: 3 }), limit: limitOf(args, 25), ...filters };
    }
    if (action === 'inspect_url') return { url: requireParam(entry, action, args, 'url') };
    if (action === 'get_sitemap' || action === 'submit_sitemap') return { sitemap_url: requireParam(entry, action, args, 'sitemap_url') };
    if (action === 'list_sitemaps') return {};
    throw invalidParameter(entry, `Invalid action '${action}'.`);
  },
  missing(config) {
    return ['service_account', 'site_url'].filter((f) => !config[f]);
  },
  ttl(action, configured) {
    return action === 'submit_sitemap' ? 0 : configured;
  },
  async run(action, params, env) {
    const token = await serviceAccountToken(entry, env, SCOPE);
    const siteUrl = env.config.site_url!;
    const site = `${env.baseUrl}/webmasters/v3/sites/${encodeURIComponent(siteUrl)}`;
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const call = <T>(url: string, init: { method: string; body?: unknown }) =>
      callJson<T>({
        entry,
        service: SERVICE,
        fetch: env.fetch,
        url,
        init: {
          method: init.method,
          headers: init.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        },
        secrets: [token],
      });

    const dimensions = DIMENSIONS[action];
    if (dimensions) {
      const filters = [
        ...(params.url_filter ? [{ dimension: 'page', operator: 'contains', expression: params.url_filter }] : []),
        ...(params.query_filter ? [{ dimension: 'query', operator: 'contains', expression: params.query_filter }] : []),
      ];
      const body = {
        startDate: params.start_date,
        endDate: params.end_date,
        dimensions,
        rowLimit: params.limit,
        ...(filters.length ? { dimensionFilterGroups: [{ groupType: 'and', filters }] } : {}),
      };
      const answer = await call<{ rows?: unknown[]; responseAggregationType?: string }>(`${site}/searchAnalytics/query`, {
        method: 'POST',
        body,
      });
      return {
        results: Array.isArray(answer?.rows) ? answer.rows : [],
        fields: {
          site_url: siteUrl,
          start_date: params.start_date,
          end_date: params.end_date,
          ...(answer?.responseAggregationType ? { response_aggregation_type: answer.responseAggregationType } : {}),
        },
      };
    }
    if (action === 'inspect_url') {
      const answer = await call<{ inspectionResult?: unknown }>(`${env.baseUrl}/v1/urlInspection/index:inspect`, {
        method: 'POST',
        body: { inspectionUrl: params.url, siteUrl },
      });
      return { results: answer?.inspectionResult ? [answer.inspectionResult] : [], fields: { site_url: siteUrl, url: params.url } };
    }
    if (action === 'list_sitemaps') {
      const answer = await call<{ sitemap?: unknown[] }>(`${site}/sitemaps`, { method: 'GET' });
      return { results: Array.isArray(answer?.sitemap) ? answer.sitemap : [], fields: { site_url: siteUrl } };
    }
    const feed = `${site}/sitemaps/${encodeURIComponent(String(params.sitemap_url))}`;
    if (action === 'get_sitemap') {
      const answer = await call<Record<string, unknown> | null>(feed, { method: 'GET' });
      return { results: answer ? [answer] : [], fields: { site_url: siteUrl, sitemap_url: params.sitemap_url } };
    }
    await call(feed, { method: 'PUT' });
    return {
      results: [],
      fields: { site_url: siteUrl, sitemap_url: params.sitemap_url, submitted: true, message: `Submitted ${String(params.sitemap_url)}.` },
    };
  },
});
