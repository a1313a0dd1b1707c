/**
 * site-analytics: an analytics data API in the GA4 Data API wire format
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest):
 * POST {base}/v1beta/properties/{id}:runReport and :runRealtimeReport, authorized by a
 * service account. Each action is one report (its dimensions and metrics below); the
 * rows come back as the API sends them (`dimensionValues`, `metricValues`).
 */
import {
  TOOL_CATALOGUE,
  serviceAccountToken,
  invalidParameter,
  dateRange,
  limitOf,
  textOf,
  callJson,
  defineAnalyticsToolPlugin,
} from '../../sdk/analytics/index.js';

const entry = TOOL_CATALOGUE['site-analytics'];
const SCOPE = 'https://www.googleapis.com/auth/analytics.readonly';
/** Realtime numbers change by the minute: cached at most this long whatever the configured TTL. */
const REALTIME_TTL_SECONDS = 60;

interface Report {
  dimensions: string[];
  metrics: string[];
  /** Ordered by this metric, descending; else by the first dimension. */
  orderByMetric?: string;
  /** The dimension page_filter applies to (none: the filter is refused for this action). */
  pageDimension?: string;
}

export const REPORTS: Record<string, Report> = {
  page_stats: {
    dimensions: ['pagePath', 'pageTitle'],
    metrics: ['screenPageViews', 'activeUsers', 'averageSessionDuration', 'bounceRate'],
    orderByMetric: 'screenPageViews',
    pageDimension: 'pagePath',
  },
  traffic_sources: {
    dimensions: ['sessionSource', 'sessionMedium'],
    metrics: ['sessions', 'activeUsers', 'engagementRate'],
    orderByMetric: 'sessions',
    pageDimension: 'landingPage',
  },
  date_stats: { dimensions: ['date'], metrics: ['activeUsers', 'sessions', 'screenPageViews'], pageDimension: 'pagePath' },
  realtime: { dimensions: ['unifiedScreenName'], metrics: ['activeUsers'], orderByMetric: 'activeUsers' },
  top_events: { dimensions: ['eventName'], metrics: ['eventCount', 'totalUsers'], orderByMetric: 'eventCount', pageDimension: 'pagePath' },
  user_demographics: {
    dimensions: ['country', 'deviceCategory'],
    metrics: ['activeUsers', 'sessions'],
    orderByMetric: 'activeUsers',
    pageDimension: 'pagePath',
  },
};

export default defineAnalyticsToolPlugin({
  entry,
  description: 'Site analytics from the analytics property: pages, traffic sources, dates, realtime users, events, demographics.',
  defaultBaseUrl: 'https://analyticsdata.googleapis.com',
  prepare(action, args, now) {
    const report = REPORTS[action];
    if (!report) throw invalidParameter(entry, `Invalid action '${action}'.`);
    const pageFilter = textOf(args, 'page_filter');
    if (pageFilter && !report.pageDimension) throw invalidParameter(entry, `${action} takes no page_filter.`);
    const property = textOf(args, 'property_id');
    const dates = action === 'realtime' ? {} : dateRange(entry, args, now, { startDaysAgo: 28, endDaysAgo: 1 });
    return {
      ...dates,
      limit: limitOf(args, 25),
      ...(pageFilter ? { page_filter: pageFilter } : {}),
      ...(property ? { property_id: property } : {}),
    };
  },
  missing(config, params) {
    return [...(config.service_account ? [] : ['service_account']), ...(config.property_id || params.property_id ? [] : ['property_id'])];
  },
  ttl(action, configured) {
    return action === 'realtime' ? Math.min(configured, REALTIME_TTL_SECONDS) : configured;
  },
  async run(action, params, env) {
    const report = REPORTS[action]!;
    const propertyId = String(params.property_id ?? env.config.property_id);
    const token = await serviceAccountToken(entry, env, SCOPE);
    const body: Record<string, unknown> = {
      ...(action === 'realtime' ? {} : { dateRanges: [{ startDate: params.start_date, endDate: params.end_date }] }),
      dimensions: report.dimensions.map((name) => ({ name })),
      metrics: report.metrics.map((name) => ({ name })),
      limit: String(params.limit),
      orderBys: report.orderByMetric
        ? [{ metric: { metricName: report.orderByMetric }, desc: true }]
        : [{ dimension: { dimensionName: report.dimensions[0] } }],
      ...(params.page_filter
        ? {
            dimensionFilter: {
              filter: {
                fieldName: report.pageDimension,
                stringFilter: { matchType: 'CONTAINS', value: params.page_filter, caseSensitive: false },
              },
            },
          }
        : {}),
    };
    const method = action === 'realtime' ? 'runRealtimeReport' : 'runReport';
    const answer = await callJson<{ rows?: unknown[]; rowCount?: number; dimensionHeaders?: unknown; metricHeaders?: unknown }>({
      entry,
      service: 'The analytics data API',
      fetch: env.fetch,
      url: `${env.baseUrl}/v1beta/properties/${encodeURIComponent(propertyId)}:${method}`,
      init: {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      secrets: [token],
    });
    return {
      results: Array.isArray(answer?.rows) ? answer.rows : [],
      fields: {
        property_id: propertyId,
        ...(action === 'realtime' ? {} : { start_date: params.start_date, end_date: params.end_date }),
        row_count: typeof answer?.rowCount === 'number' ? answer.rowCount : 0,
        dimension_headers: answer?.dimensionHeaders ?? [],
        metric_headers: answer?.metricHeaders ?? [],
      },
    };
  },
});
