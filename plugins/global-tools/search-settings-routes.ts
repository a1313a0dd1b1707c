/** GET/PUT /tools/web-search: whether web_search is configured, and its key (sealed, shown masked). */
import { Type } from '../../sdk/index.js';
import { defineRoute, defineSurface, maskSecret, successBody, type SurfaceDefinition } from '../../sdk/index.js';
import type { SearchKey } from './search-key.js';

const view = {
  type: 'object',
  required: ['configured', 'base_url', 'api_key'],
  properties: { configured: { type: 'boolean' }, base_url: { type: 'string' }, api_key: { type: 'string' } },
  additionalProperties: false,
} as const;

export function searchSettingsSurface(key: SearchKey, baseUrl: string): SurfaceDefinition {
  const data = async () => {
    const current = await key.current();
    return { configured: current !== '', base_url: baseUrl, api_key: maskSecret(current) };
  };
  return defineSurface({
    id: 'global-tools',
    routes: [
      {
        method: 'GET',
        path: '/tools/web-search',
        permission: { capability: 'manage_options' },
        summary: 'Whether the web_search tool is configured (its API key masked)',
        schema: { responses: { 200: successBody({ data: view }) } },
        async handle() {
          return { success: true, data: await data() };
        },
      },
      defineRoute({
        method: 'PUT',
        path: '/tools/web-search',
        permission: { capability: 'manage_options' },
        summary: "Saves the web_search API key (sealed; '' removes it, the masked value keeps it)",
        schema: {
          body: Type.Object({ api_key: Type.String({ maxLength: 4096 }) }, { additionalProperties: false }),
          responses: { 200: successBody({ message: { type: 'string' }, data: view }) },
        },
        async handle(request) {
          await key.save(request.body.api_key);
          return { success: true, message: 'Web search settings saved.', data: await data() };
        },
      }),
    ],
  });
}
