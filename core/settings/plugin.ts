import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { SettingsService } from './service.js';
import { settingsSurface } from './routes.js';

/** Site settings (GET/PUT /settings). */
export const settingsPlugin = definePlugin({
  id: 'core-settings',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Site settings and their routes.',
  collections: ['settings'],
  provides: [
    createServiceFactory({
      service: services.settings,
      deps: { store: services.rootStore, vault: services.vault },
      factory: ({ store, vault }) => new SettingsService(store, vault),
    }),
  ],
  deps: { routes: services.routes, settings: services.settings, registries: services.registries, intervals: services.scheduleIntervals },
  setup({ routes, settings, registries, intervals }) {
    routes.add(settingsSurface(settings, registries, intervals));
  },
});
