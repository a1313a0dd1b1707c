/**
 * page-performance: a page speed API with an API key, in the PageSpeed Insights v5 wire
 * format (https://developers.google.com/speed/docs/insights/rest/v5/pagespeedapi/runpagespeed):
 * GET {base}/pagespeedonline/v5/runPagespeed?url=…&strategy=…&key=…&category=….
 * The answer is one Lighthouse report, not rows: each action answers a part of it as
 * sent — analyze the four category objects, performance the metric audits, opportunities
 * the audits whose details are of type `opportunity`.
 */
import { TOOL_CATALOGUE, invalidParameter, textOf, callJson, defineAnalyticsToolPlugin } from '../../sdk/analytics/index.js';

const entry = TOOL_CATALOGUE['page-performance'];

const CATEGORIES: Record<string, string[]> = {
  analyze: ['PERFORMANCE', 'ACCESSIBILITY', 'BEST_PRACTICES', 'SEO'],
  performance: ['PERFORMANCE'],
  opportunities: ['PERFORMANCE'],
};

/** The Lighthouse audits that are the performance metrics (Core Web Vitals and the lab metrics). */
export const METRIC_AUDITS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
  'interactive',
];

interface PageSpeedAnswer {
  id?: string;
  loadingExperience?: unknown;
  analysisUTCTimestamp?: string;
  lighthouseResult?: {
    finalUrl?: string;
    categories?: Record<string, { score?: unknown }>;
    audits?: Record<string, { details?: { type?: unknown } }>;
  };
}

export default defineAnalyticsToolPlugin({
  entry,
  description:
    'Page speed of a page of the site (default: its home page): category scores, performance metrics, improvement opportunities.',
  defaultBaseUrl: 'https://www.googleapis.com',
  prepare(action, args, _now, hostInfo) {
    if (!(action in CATEGORIES)) throw invalidParameter(entry, `Invalid action '${action}'.`);
    return { url: textOf(args, 'url') ?? hostInfo.publicUrl(), strategy: textOf(args, 'strategy') ?? 'mobile' };
  },
  missing(config) {
    return config.api_key ? [] : ['api_key'];
  },
  ttl(_action, configured) {
    return configured;
  },
  async run(action, params, env) {
    const apiKey = env.config.api_key!;
    const query = new URLSearchParams({ url: String(params.url), strategy: String(params.strategy).toUpperCase(), key: apiKey });
    for (const category of CATEGORIES[action]!) query.append('category', category);
    const answer = await callJson<PageSpeedAnswer>({
      entry,
      service: 'The PageSpeed Insights API',
      fetch: env.fetch,
      url: `${env.baseUrl}/pagespeedonline/v5/runPagespeed?${query.toString()}`,
      init: { method: 'GET', headers: { accept: 'application/json' }, timeoutMs: 90_000 },
      secrets: [apiKey, encodeURIComponent(apiKey)],
    });
    const lighthouse = answer?.lighthouseResult ?? {};
    const audits = lighthouse.audits ?? {};
    const fields: Record<string, unknown> = {
      url: params.url,
      strategy: params.strategy,
      ...(answer?.analysisUTCTimestamp ? { analysis_utc_timestamp: answer.analysisUTCTimestamp } : {}),
    };
    if (action === 'analyze')
      return {
        results: Object.values(lighthouse.categories ?? {}),
        fields: { ...fields, loading_experience: answer?.loadingExperience ?? null },
      };
    const performanceScore = lighthouse.categories?.performance?.score ?? null;
    if (action === 'performance')
      return {
        results: METRIC_AUDITS.filter((id) => audits[id]).map((id) => audits[id]),
        fields: { ...fields, performance_score: performanceScore },
      };
    return {
      results: Object.values(audits).filter((audit) => audit?.details?.type === 'opportunity'),
      fields: { ...fields, performance_score: performanceScore },
    };
  },
});
