/**
 * The analytics surface: POST /analytics/{tool} dispatching to the analytics tools other
 * plugins register (analytics-search-stats, analytics-crawler-stats,
 * analytics-site-analytics, analytics-page-performance), and `flowhost analytics`.
 * The tools' shared parts (configuration, cache, service-account tokens, error mapping)
 * are the SDK's flowhost/analytics (sdk/analytics), which the tool plugins use.
 */
import { definePlugin, services } from '../../sdk/index.js';
import { analyticsNoun } from './cli.js';
import { analyticsSurface } from './routes.js';

export default definePlugin({
  id: 'analytics',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'POST /analytics/{tool}: the four analytics tools of spec 02, results untransformed.',
  deps: { routes: services.routes, registries: services.registries, clock: services.clock, fetch: services.fetch },
  setup({ routes, registries, clock, fetch }) {
    routes.add(analyticsSurface(registries, clock, fetch));
  },
  cli: [analyticsNoun],
});
