import type { PluginDefinition } from '../sdk/index.js';
import cms from './cms/index.js';
import discovery from './discovery/index.js';
import intervalsCore from './intervals-core/index.js';
import rss from './rss/index.js';
import webhookItems from './webhook-items/index.js';
import stepsCore from './steps-core/index.js';
import webhookPresets from './webhook-presets/index.js';
import microblog from './microblog/index.js';
import social from './social/index.js';
import forum from './forum/index.js';
import spreadsheet from './spreadsheet/index.js';
import federated from './federated/index.js';
import files from './files/index.js';
import providerOpenai from './provider-openai/index.js';
import providerAnthropic from './provider-anthropic/index.js';
import providerGemini from './provider-gemini/index.js';
import providerXai from './provider-xai/index.js';
import providerOpenrouter from './provider-openrouter/index.js';
import chat from './chat/index.js';
import metrics from './metrics/index.js';
import globalTools from './global-tools/index.js';
import mcp from './mcp/index.js';
import billing from './billing/index.js';
import analytics from './analytics/index.js';
import analyticsSearchStats from './analytics-search-stats/index.js';
import analyticsCrawlerStats from './analytics-crawler-stats/index.js';
import analyticsSiteAnalytics from './analytics-site-analytics/index.js';
import analyticsPagePerformance from './analytics-page-performance/index.js';
import events from './events/index.js';
import docsync from './docsync/index.js';
import console from './console/index.js';
import alerts from './alerts/index.js';
import mcpClient from './mcp-client/index.js';

/** Built-in plugins every default build loads. */
// One per line: a new built-in is a one-line addition.
export const defaultPlugins: ReadonlyArray<PluginDefinition> = [
  discovery,
  intervalsCore,
  stepsCore,
  rss,
  webhookItems,
  cms,
  microblog,
  social,
  forum,
  spreadsheet,
  federated,
  files,
  providerOpenai,
  providerAnthropic,
  providerGemini,
  providerXai,
  providerOpenrouter,
  chat,
  globalTools,
  mcp,
  metrics,
  billing,
  analytics,
  analyticsSearchStats,
  analyticsCrawlerStats,
  analyticsSiteAnalytics,
  analyticsPagePerformance,
  events,
  docsync,
  console,
  mcpClient,
];

/** Built-in plugins a build may enable by id (FLOWHOST_PLUGINS / config `plugins`). */
export const optionalPlugins: Readonly<Record<string, PluginDefinition>> = {
  'webhook-presets': webhookPresets,
  alerts,
};
