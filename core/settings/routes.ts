import type { Registries } from '../kernel/registries.js';
import type { SurfaceDefinition } from '../kernel/routes.js';
import { settingsDefaults, settingsPatchBody, type SiteSettings } from './schemas.js';
import type { SettingsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { settingsResponses } from './responses.js';

const admin = { capability: 'manage_options' } as const;

export function settingsSurface(settings: SettingsService, registries: Registries): SurfaceDefinition {
  const update = {
    permission: admin,
    schema: { body: settingsPatchBody },
    async handle(request: { body: unknown }) {
      const saved = await settings.update(request.body as Partial<SiteSettings>);
      return { success: true, message: 'Settings saved.', data: { settings: saved, defaults: settingsDefaults } };
    },
  };
  return withResponses({
    id: 'settings',
    routes: [
      {
        method: 'GET',
        path: '/settings',
        permission: admin,
        summary: 'Site settings and their defaults',
        async handle() {
          return { success: true, data: { settings: await settings.get(), defaults: settingsDefaults } };
        },
      },
      { method: 'PATCH', path: '/settings', summary: 'Change some settings', ...update },
      { method: 'PUT', path: '/settings', summary: 'Change settings (partial, like PATCH)', ...update },
      {
        method: 'GET',
        path: '/settings/scheduling-intervals',
        permission: admin,
        summary: 'Scheduling intervals from the intervals registry',
        handle() {
          return { success: true, data: registries.intervals().map((i) => ({ value: i.value, label: i.label, seconds: i.seconds })) };
        },
      },
    ],
  }, settingsResponses);
}
