/**
 * `mockService(ref, implementation)`: a test's own implementation of a service, in the
 * manner of Backstage's `mockServices`. Given to `startTestHost({ services })`, it replaces
 * whatever the host or a plugin would provide for that reference, or provides one that no
 * loaded plugin does (a plugin tested without the plugins it depends on).
 *
 * The implementation may be partial: a member the test did not give throws when it is
 * used, naming the service and the member, instead of failing later as `undefined`.
 */
import { createServiceFactory, type ServiceFactory, type ServiceRef } from '../kernel/service-ref.js';

/** Members read without being called by the runtime (await, JSON, inspection): absent means undefined. */
const PROBED = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType']);

export function mockService<T>(ref: ServiceRef<T>, implementation: Partial<T>): ServiceFactory<T> {
  const value =
    typeof implementation === 'object' && implementation !== null
      ? (new Proxy(implementation, {
          get(target, name, receiver) {
            if (typeof name === 'symbol' || name in target || PROBED.has(name)) return Reflect.get(target, name, receiver);
            throw new Error(`mockService('${ref.id}'): the test's implementation has no '${name}'; add it to the mock`);
          },
        }) as T)
      : (implementation as T);
  return createServiceFactory({ service: ref, factory: () => value });
}
