/**
 * Builds one analytics-tool plugin: the analytics tool the surface dispatches to, the
 * same operations as a chat tool (offered once configured), GET/PUT of its configuration,
 * the per-request cache and the service-account tokens. A tool supplies only what differs:
 * how it checks and fills in parameters, what it needs configured, and how it asks its API.
 */
import {
  defineAnalyticsTool,
  isApiError,
  defineChatTool,
  definePlugin,
  services,
  type CallContext,
  type Clock,
  type GuardedFetch,
  type HostInfo,
  type PluginDefinition,
  type Vault,
} from '../index.js';
import { chatTools } from '../chat/index.js';
import { parametersSchema, type ToolCatalogueEntry } from './catalogue.js';
import { analyticsTools } from './tools.js';
import { ResultCache, type CacheDoc } from './cache.js';
import { ToolConfig, type ConfigDoc, type ConfigValues } from './config.js';
import { configSurface } from './config-routes.js';
import { notConfigured } from './errors.js';
import { ServiceAccountTokens } from './service-account.js';

export interface ToolSettings {
  /** The API's base URL (tests point it at a fake on 127.0.0.1). */
  base_url: string;
  /** How long an identical request is answered from the cache; 0 turns the cache off. */
  cache_ttl_seconds: number;
}

export interface ToolEnv {
  baseUrl: string;
  config: ConfigValues;
  fetch: GuardedFetch;
  clock: Clock;
  hostInfo: HostInfo;
  tokens: ServiceAccountTokens;
}

/** What a tool answers besides `success`, `action`, `results_count`: its rows and its own fields. */
export interface ToolAnswer {
  results: unknown[];
  fields?: Record<string, unknown>;
}

export interface AnalyticsToolPluginOptions {
  entry: ToolCatalogueEntry;
  description: string;
  defaultBaseUrl: string;
  /** Checks what a schema cannot (real dates, start ≤ end, per-action needs) and fills in defaults; throws invalidParameter. */
  prepare(action: string, args: Record<string, unknown>, now: Date, hostInfo: HostInfo): Record<string, unknown>;
  /** The configuration fields this request still lacks. */
  missing(config: ConfigValues, params: Record<string, unknown>): string[];
  /** Seconds to cache this action's answer (0: never, e.g. a write). */
  ttl(action: string, configured: number): number;
  run(action: string, params: Record<string, unknown>, env: ToolEnv): Promise<ToolAnswer>;
}

export function defineAnalyticsToolPlugin(options: AnalyticsToolPluginOptions): PluginDefinition {
  const { entry } = options;
  return definePlugin({
    id: `analytics-${entry.id}`,
    version: '1.0.0',
    flowhost: '^1.0.0',
    description: options.description,
    settingsSchema: {
      type: 'object',
      properties: {
        base_url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 500, default: options.defaultBaseUrl },
        cache_ttl_seconds: { type: 'integer', minimum: 0, maximum: 86_400, default: 300 },
      },
    },
    deps: {
      analyticsTools,
      // The same operations as a chat tool where chat is loaded; a build without chat still serves the tool.
      chatTools: chatTools.optional,
      routes: services.routes,
      settings: services.configOf<ToolSettings>(),
      store: services.store,
      vault: services.vault,
      fetch: services.fetch,
      clock: services.clock,
      hostInfo: services.hostInfo,
    },
    setup({ analyticsTools, chatTools, routes, settings, store, vault, fetch, clock, hostInfo }) {
      const config = new ToolConfig(entry, store.collection<ConfigDoc>('config'), vault as Vault);
      const cache = new ResultCache(store.collection<CacheDoc>('cache'), clock);
      const tokens = new ServiceAccountTokens(clock);
      const baseUrl = settings.base_url.replace(/\/+$/, '');

      const answer = async (args: Record<string, unknown>, ctx: CallContext): Promise<Record<string, unknown>> => {
        const action = String(args.action);
        const params = options.prepare(action, args, ctx.clock.now(), hostInfo);
        const values = await config.values();
        const lacking = options.missing(values, params);
        if (lacking.length) throw notConfigured(entry, lacking);
        const ttl = options.ttl(action, settings.cache_ttl_seconds);
        const key = cache.key({ action, params });
        if (ttl > 0) {
          const hit = await cache.get(key);
          if (hit) return hit;
        }
        // The host's guarded fetch, not the caller's: both refuse private addresses alike.
        let answered: ToolAnswer;
        try {
          answered = await options.run(action, params, { baseUrl, config: values, fetch, clock, hostInfo, tokens });
        } catch (error) {
          // Operators see remote refusals in the log (the message is already free of credentials).
          if (isApiError(error)) ctx.log.warn({ tool: entry.id, action, remote_status: error.data.remote_status ?? null }, error.message);
          throw error;
        }
        const { results, fields } = answered;
        const body = { success: true, action, results_count: results.length, results, ...(fields ?? {}) };
        await cache.put(key, body, ttl);
        return body;
      };
      const configured = async () => options.missing(await config.values(), {}).length === 0;

      routes.add(
        configSurface(
          entry,
          config,
          async () => options.missing(await config.values(), {}),
          () => cache.clear(),
        ),
      );
      const parameters = parametersSchema(entry);
      analyticsTools.add(
        defineAnalyticsTool({ name: entry.id, description: options.description, parameters, run: answer, enabled: configured }),
      );
      chatTools.add(
        defineChatTool({
          name: entry.chatName,
          description: `${options.description} Actions: ${entry.actions.join(', ')}. Answers {action, results_count, results} with the service's rows as it sends them.`,
          parameters,
          run: answer,
          // Offered to a model only once configured: an unconfigured tool can only fail.
          enabled: configured,
        }),
      );
    },
  });
}
