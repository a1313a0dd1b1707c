import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { services } from '../kernel/services.js';
import { CredentialsService } from './service.js';
import { authSurface } from './routes.js';

/** Credentials of handlers: application keys and accounts, sealed; the /auth routes. */
export const credentialsPlugin = definePlugin({
  id: 'core-credentials',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Handler credentials (application keys, connected accounts, app passwords) and GET/PUT/DELETE /auth.',
  collections: ['application_keys', 'auth_accounts'],
  provides: [
    createServiceFactory({
      service: services.credentials,
      deps: { store: services.rootStore, vault: services.vault, clock: services.clock, registries: services.registries, info: services.hostInfo },
      async factory(deps) {
        const credentials = new CredentialsService(deps);
        await credentials.init();
        return credentials;
      },
    }),
  ],
  deps: { routes: services.routes, credentials: services.credentials },
  setup({ routes, credentials }) {
    routes.add(authSurface(credentials));
  },
});
