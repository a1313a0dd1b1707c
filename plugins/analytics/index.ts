/**
 * The analytics surface: POST /analytics/{tool} dispatching to the analytics tools other
 * plugins contribute to this plugin's extension point (`analyticsTools`, flowhost/analytics) (analytics-search-stats, analytics-crawler-stats,
 * analytics-site-analytics, analytics-page-performance), and `flowhost analytics`.
 * The tools' shared parts (configuration, cache, service-account tokens, error mapping)
 * are the SDK's flowhost/analytics (sdk/analytics), which the tool plugins use.
 */
import { definePlugin, services } from '../../sdk/index.js';
import { analyticsTools } from '../../sdk/analytics/index.js';
import { analyticsNoun } from './cli.js';
import { analyticsSurface } from './routes.js';

export default definePlugin({
  id: 'analytics',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'POST /analytics/{tool}: the four analytics tools of spec 02, results untransformed.',
  // Owns the analytics-tools extension point: the tool plugins add to it, this plugin serves them.
  extensionPoints: [analyticsTools],
  deps: { routes: services.routes, tools: analyticsTools.contributions, clock: services.clock, fetch: services.fetch },
  setup({ routes, tools, clock, fetch }) {
    routes.add(analyticsSurface(tools, clock, fetch));
  },
  cli: [analyticsNoun],
});
