import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { coreServices as services } from '../internal-services.js';
import { UsersRepository } from './repository.js';
import { UsersService } from './service.js';
import { PreferencesService, preferencesSurface } from './preferences.js';

/** Users, application passwords and sessions (authentication itself is the host's). */
export const usersPlugin = definePlugin({
  id: 'core-users',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Users, application passwords, sessions and user preferences.',
  collections: ['users', 'app_passwords', 'sessions', 'user_preferences'],
  provides: [
    createServiceFactory({
      service: services.users,
      deps: { store: services.rootStore, clock: services.clock },
      async factory({ store, clock }) {
        const users = new UsersService(new UsersRepository(store), clock);
        await users.init();
        return users;
      },
    }),
  ],
  deps: { routes: services.routes, store: services.rootStore, users: services.users, pipelines: services.pipelines },
  setup({ routes, store, users, pipelines }) {
    routes.add(preferencesSurface(new PreferencesService(store, users, pipelines)));
  },
});
