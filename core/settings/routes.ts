import type { Registries } from '../kernel/registries.js';
import type { ScheduleIntervals } from '../../sdk/contract/schedule-intervals.js';
import type { SurfaceDefinition } from '../kernel/routes.js';
import { errorBody, successBody } from '../kernel/response-schemas.js';
import { settingsDefaults, settingsDefaultsView, settingsPatchBody, settingsView } from './schemas.js';
import type { SettingsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { settingsResponses } from './responses.js';
import { apiError } from '../errors/catalogue.js';
import { defineRoute } from '../../sdk/define.js';
import type { TypedRequest } from '../../sdk/typed-schemas.js';

const admin = { capability: 'manage_options' } as const;

const settingsData = {
  type: 'object',
  required: ['settings', 'defaults'],
  properties: { settings: settingsView, defaults: settingsDefaultsView },
  additionalProperties: false,
} as const;

export function settingsSurface(settings: SettingsService, registries: Registries, intervals: ScheduleIntervals): SurfaceDefinition {
  /** The settings with each registered provider's key masked ('' when unset). */
  const view = async () => ({
    settings: { ...(await settings.get()), ai_provider_keys: await settings.maskedProviderKeys(registries.providers().map((p) => p.slug)) },
    defaults: settingsDefaults,
  });
  const updateSchema = {
    body: settingsPatchBody,
    responses: {
      200: successBody({ message: { type: 'string' }, data: settingsData }),
      400: errorBody('rest_invalid_param', 'provider_not_found'),
    },
  };
  const update = {
    permission: admin,
    schema: updateSchema,
    async handle(request: TypedRequest<typeof updateSchema>) {
      const { ai_provider_keys: keys, ...rest } = request.body;
      if (keys) {
        const known = new Set(registries.providers().map((p) => p.slug));
        const unknown = Object.keys(keys).filter((slug) => !known.has(slug));
        if (unknown.length)
          throw apiError('provider_not_found', { message: `ai_provider_keys: no AI provider '${unknown[0]}' is registered`, status: 400 });
        await settings.setProviderKeys(keys);
      }
      await settings.update(rest);
      return { success: true, message: 'Settings saved.', data: await view() };
    },
  };
  return withResponses(
    {
      id: 'settings',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/settings',
          permission: admin,
          summary: 'Site settings (AI provider keys masked) and their defaults',
          schema: { responses: { 200: successBody({ data: settingsData }) } },
          async handle() {
            return { success: true, data: await view() };
          },
        }),
        defineRoute({
          method: 'PATCH',
          path: '/settings',
          summary: 'Change some settings (AI provider keys under ai_provider_keys)',
          ...update,
        }),
        defineRoute({ method: 'PUT', path: '/settings', summary: 'Change settings (partial, like PATCH)', ...update }),
        defineRoute({
          method: 'GET',
          path: '/settings/scheduling-intervals',
          permission: admin,
          summary: "Scheduling intervals (the flows domain's intervals)",
          handle() {
            return { success: true, data: intervals.list().map((i) => ({ value: i.value, label: i.label, seconds: i.seconds })) };
          },
        }),
      ],
    },
    settingsResponses,
  );
}
