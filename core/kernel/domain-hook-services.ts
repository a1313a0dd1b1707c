import { listenOnly, type ListenOnly } from '../../sdk/kernel/domain-hooks.js';
import { createServiceFactory, type ServiceFactory, type ServiceRef } from './service-ref.js';
import { services } from './services.js';

/**
 * The two services a domain's own hooks make (issue 54): the owner's, privileged (it holds
 * the hooks and alone fires them), and the listeners' public view (tapping methods only).
 * The owner's taps and every listener's are named after the plugin that made them, as the
 * kernel catalogue's are.
 */
export function domainHookFactories<H extends object>(
  owned: ServiceRef<H, 'root'>,
  listened: ServiceRef<ListenOnly<H>, 'root'>,
  build: () => H,
): ServiceFactory[] {
  return [
    createServiceFactory({
      service: owned,
      deps: { hooks: services.hooks },
      factory({ hooks }) {
        const domainHooks = build();
        hooks.attribute(domainHooks);
        return domainHooks;
      },
    }),
    createServiceFactory({ service: listened, deps: { domainHooks: owned }, factory: ({ domainHooks }) => listenOnly(domainHooks) }),
  ] as ServiceFactory[];
}
