/** GET/PUT /analytics/{tool}/config: a tool's configuration (manage_options; secrets write-only, shown masked). */
import { defineSurface, errorBody, successBody, type JsonSchema, type SurfaceDefinition } from '../index.js';
import type { ToolCatalogueEntry } from './catalogue.js';
import type { ToolConfig } from './config.js';

export function configSurface(
  entry: ToolCatalogueEntry,
  config: ToolConfig,
  missing: () => Promise<string[]>,
  onSaved: () => Promise<void>,
): SurfaceDefinition {
  const fields = Object.keys(entry.config);
  const settings: JsonSchema = {
    type: 'object',
    required: fields,
    properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])),
    additionalProperties: false,
  };
  const view: JsonSchema = {
    type: 'object',
    required: ['tool', 'configured', 'missing', 'settings'],
    properties: {
      tool: { const: entry.id },
      configured: { type: 'boolean' },
      missing: { type: 'array', items: { type: 'string' } },
      settings,
    },
    additionalProperties: false,
  };
  const data = async () => {
    const lacking = await missing();
    return { tool: entry.id, configured: lacking.length === 0, missing: lacking, settings: await config.view() };
  };
  const path = `/analytics/${entry.id}/config`;
  return defineSurface({
    id: `analytics-${entry.id}-config`,
    routes: [
      {
        method: 'GET',
        path,
        permission: { capability: 'manage_options' },
        summary: `The ${entry.id} analytics tool's configuration (secrets masked)`,
        schema: { responses: { 200: successBody({ data: view }) } },
        async handle() {
          return { success: true, data: await data() };
        },
      },
      {
        method: 'PUT',
        path,
        permission: { capability: 'manage_options' },
        summary: `Saves the ${entry.id} analytics tool's configuration ('' removes a field, a masked value keeps it)`,
        schema: {
          body: {
            type: 'object',
            minProperties: 1,
            properties: Object.fromEntries(
              Object.entries(entry.config).map(([f, spec]) => [
                f,
                { type: 'string', maxLength: f === 'service_account' ? 20_000 : 2048, description: spec.describe },
              ]),
            ),
            additionalProperties: false,
          },
          responses: { 200: successBody({ message: { type: 'string' }, data: view }), 400: errorBody('analytics_config_invalid') },
        },
        async handle(request) {
          await config.save(request.body as Record<string, string>);
          await onSaved();
          return { success: true, message: `The ${entry.id} configuration is saved.`, data: await data() };
        },
      },
    ],
  });
}
