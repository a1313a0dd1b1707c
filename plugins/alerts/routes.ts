/**
 * The alert settings in the core namespace (manage_options): the site's at /alerts, a
 * flow's overrides at /flows/{flow_id}/alerts, and a test alert on the configured channels.
 * The webhook secret is answered masked; saving the masked value back keeps it.
 */
import { apiError, defineRoute, defineSurface, errorBody, successBody, type FlowsApi, type SurfaceDefinition } from '../../sdk/index.js';
import type { AlertSettingsStore, SettingsPatch } from './settings.js';
import { settingsView } from './settings.js';

const MANAGE = { capability: 'manage_options' } as const;
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

const fields = {
  enabled: { type: 'boolean' },
  notify: { enum: ['problem', 'every_failure'] },
  window_minutes: { type: 'integer', minimum: 0, maximum: 10_080 },
  email_to: { type: 'array', maxItems: 20, items: { type: 'string', format: 'email', maxLength: 320 } },
  webhook_url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
  webhook_format: { enum: ['slack', 'json'] },
  webhook_secret: { type: 'string', maxLength: 4096 },
  on_failure_flow_id: { type: 'integer', minimum: 1 },
} as const;

/** Every field optional; null clears it (a flow's: back to the site's). */
const patchBody = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, nullable(v)])),
} as const;

const settingsSchema = {
  type: 'object',
  properties: {
    ...fields,
    webhook_url: nullable(fields.webhook_url),
    on_failure_flow_id: nullable(fields.on_failure_flow_id),
    webhook_secret_set: { type: 'boolean' },
  },
} as const;
const flowAnswer = successBody({ data: { type: 'object', properties: { flow: settingsSchema, effective: settingsSchema } } });
const notFound = errorBody('flow_not_found');
const invalid = errorBody('rest_invalid_param');
const flowParams = { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } } as const;
const testBody = { type: 'object', additionalProperties: false, properties: { flow_id: { type: 'integer', minimum: 1 } } } as const;
const testResult = {
  type: 'object',
  properties: {
    channels: {
      type: 'array',
      items: { type: 'object', properties: { channel: { type: 'string' }, ok: { type: 'boolean' }, error: { type: 'string' } } },
    },
  },
} as const;

export interface TestResult {
  channel: string;
  ok: boolean;
  error?: string;
}

export interface AlertsRouteDeps {
  settings: AlertSettingsStore;
  flows: FlowsApi;
  /** Sends a test alert on the channels the given flow's (or the site's) settings turn on. */
  test(flowId: number | null): Promise<TestResult[]>;
}

export function alertsSurface({ settings, flows, test }: AlertsRouteDeps): SurfaceDefinition {
  // An on-failure flow must exist when it is chosen: a typo is refused, not found at the next failure.
  const checkTarget = async (patch: SettingsPatch) => {
    const target = patch.on_failure_flow_id;
    if (typeof target !== 'number') return;
    await flows.get(target).catch(() => {
      throw apiError('rest_invalid_param', {
        message: `on_failure_flow_id ${target} is not a flow`,
        data: { params: { on_failure_flow_id: 'no such flow' } },
      });
    });
  };
  return defineSurface({
    id: 'alerts',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/alerts',
        permission: MANAGE,
        summary: 'The site-wide alert settings (webhook secret masked)',
        schema: { responses: { 200: successBody({ data: settingsSchema }) } },
        async handle() {
          return { success: true, data: settingsView(await settings.site()) };
        },
      }),
      defineRoute({
        method: 'PUT',
        path: '/alerts',
        permission: MANAGE,
        summary: 'Changes the site-wide alert settings (given fields only; null resets one)',
        schema: { body: patchBody, responses: { 200: successBody({ data: settingsSchema }), 400: invalid } },
        async handle(request) {
          const patch = request.body as SettingsPatch;
          await checkTarget(patch);
          await settings.saveSite(patch);
          return { success: true, data: settingsView(await settings.site()) };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/flows/{flow_id}/alerts',
        permission: MANAGE,
        summary: "A flow's alert overrides and the settings in effect for it",
        schema: { params: flowParams, responses: { 200: flowAnswer, 404: notFound } },
        async handle(request) {
          return { success: true, data: await flowView(settings, flows, request.params.flow_id) };
        },
      }),
      defineRoute({
        method: 'PUT',
        path: '/flows/{flow_id}/alerts',
        permission: MANAGE,
        summary: "Changes a flow's alert overrides (given fields only; null goes back to the site's)",
        schema: { params: flowParams, body: patchBody, responses: { 200: flowAnswer, 400: invalid, 404: notFound } },
        async handle(request) {
          const patch = request.body as SettingsPatch;
          await flows.get(request.params.flow_id);
          await checkTarget(patch);
          await settings.saveFlow(request.params.flow_id, patch);
          return { success: true, data: await flowView(settings, flows, request.params.flow_id) };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/alerts/test',
        permission: MANAGE,
        summary: "Sends a test alert on each configured channel (a flow's when flow_id is given) and says how each went",
        schema: { body: testBody, responses: { 200: successBody({ data: testResult }), 404: notFound } },
        async handle(request) {
          const flowId = (request.body as { flow_id?: number }).flow_id ?? null;
          if (flowId !== null) await flows.get(flowId);
          return { success: true, data: { channels: await test(flowId) } };
        },
      }),
    ],
  });
}

async function flowView(settings: AlertSettingsStore, flows: FlowsApi, flowId: number) {
  await flows.get(flowId);
  return { flow: settingsView(await settings.flowOverrides(flowId)), effective: settingsView(await settings.effective(flowId)) };
}
