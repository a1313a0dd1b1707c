/**
 * Global tools: tools any assistant may use, contributed to chat's `chatTools` point —
 * web_search (a configured Brave Search API), web_fetch (a URL through the guarded
 * fetch), local_search and cms_post_reader (this site's posts, as the caller may read
 * them) and api_query (this site's REST API, in process, as the caller). One file per tool.
 */
import { definePlugin, services } from '../../sdk/index.js';
import { chatTools } from '../../sdk/chat/index.js';
import { SearchKey, type SearchKeyDoc } from './search-key.js';
import { searchSettingsSurface } from './search-settings-routes.js';
import { webSearchTool } from './web-search.js';
import { webFetchTool } from './web-fetch.js';
import { localSearchTool } from './local-search.js';
import { cmsPostReaderTool } from './cms-post-reader.js';
import { apiQueryTool } from './api-query.js';

export interface GlobalToolsSettings {
  /** The Brave Search API's base URL (tests point it at a fake). */
  search_base_url: string;
  /** A key from the config; one saved with PUT /tools/web-search takes precedence. */
  search_api_key: string;
  search_timeout_ms: number;
  fetch_timeout_ms: number;
  fetch_max_bytes: number;
}

export default definePlugin({
  id: 'global-tools',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Assistant tools beyond workflows: web_search, web_fetch, local_search, cms_post_reader and api_query.',
  settingsSchema: {
    type: 'object',
    properties: {
      search_base_url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 500, default: 'https://api.search.brave.com' },
      search_api_key: { type: 'string', maxLength: 4096, default: '' },
      search_timeout_ms: { type: 'integer', minimum: 1000, maximum: 60_000, default: 15_000 },
      fetch_timeout_ms: { type: 'integer', minimum: 1000, maximum: 60_000, default: 15_000 },
      fetch_max_bytes: { type: 'integer', minimum: 1024, maximum: 20 * 1024 * 1024, default: 2 * 1024 * 1024 },
    },
  },
  deps: {
    tools: chatTools,
    routes: services.routes,
    config: services.configOf<GlobalToolsSettings>(),
    store: services.store,
    vault: services.vault,
    fetch: services.fetch,
    content: services.content,
    contentTypes: services.contentTypes,
    hostInfo: services.hostInfo,
    api: services.api,
  },
  setup({ tools, routes, config, store, vault, fetch, content, contentTypes, hostInfo, api }) {
    const baseUrl = config.search_base_url.replace(/\/+$/, '');
    const key = new SearchKey(store.collection<SearchKeyDoc>('settings'), vault, config.search_api_key.trim());
    routes.add(searchSettingsSurface(key, baseUrl));
    tools.add(webSearchTool({ baseUrl, key, fetch, timeoutMs: config.search_timeout_ms }));
    tools.add(webFetchTool({ timeoutMs: config.fetch_timeout_ms, maxBytes: config.fetch_max_bytes }));
    tools.add(localSearchTool(content, contentTypes, hostInfo));
    tools.add(cmsPostReaderTool(content, contentTypes, hostInfo));
    tools.add(apiQueryTool(api));
  },
});
