import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { CredentialsService } from './service.js';
import { authSurface } from './routes.js';
import { authPagesSurface } from './auth-pages.js';
import { BrowserFlow } from './browser-flow.js';
import { authProviders } from '../../sdk/contract/credential-points.js';

/** Credentials of handlers: application keys and accounts, sealed; the /auth routes. */
export const credentialsPlugin = definePlugin({
  id: 'core-credentials',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Handler credentials (application keys, connected accounts, app passwords) and GET/PUT/DELETE /auth.',
  collections: ['application_keys', 'auth_accounts', 'oauth_states'],
  // Only the credentials domain reads auth providers: its point, not a kernel kind.
  extensionPoints: [authProviders],
  provides: [
    createServiceFactory({
      service: services.credentials,
      deps: {
        store: services.rootStore,
        vault: services.vault,
        clock: services.clock,
        catalogue: services.handlerCatalogue,
        // Built for this plugin, the point's owner; read at call time (sealed at boot).
        authProviders: authProviders.contributions,
        info: services.hostInfo,
      },
      async factory(deps) {
        const credentials = new CredentialsService(deps);
        await credentials.init();
        return credentials;
      },
    }),
  ],
  deps: {
    routes: services.routes,
    credentials: services.credentials,
    store: services.rootStore,
    vault: services.vault,
    clock: services.clock,
    fetch: services.fetch,
    providers: authProviders.contributions,
    scheduler: services.scheduler,
    info: services.hostInfo,
  },
  async setup({ routes, credentials, store, vault, clock, fetch, providers, scheduler, info }) {
    const flow = new BrowserFlow({ store, vault, clock, fetch, authProviders: providers, credentials, insecure: info.allowsPrivateUrls });
    await flow.init();
    routes.add(authSurface(credentials));
    routes.add(authPagesSurface(flow, credentials));
    // Abandoned popups leave pending states; they expire after 15 minutes.
    scheduler.define('purge-states', () => flow.purgeExpired().then(() => undefined));
    await scheduler.every('1 hour', 'purge-states');
  },
});
