/**
 * Every kind of contribution, as data: its registry name and the field that identifies an
 * item. A new kind is one entry here plus one `define*` helper in the SDK; the registrar
 * service, the list (`Registry`), duplicate refusal and owner tracking follow from it.
 * A kind only one plugin or one domain consumes is not fixed here: that plugin (or the
 * domain's core plugin) owns it as an extension point (extension-point.ts), as chat owns
 * chat tools and core-webhooks webhook presets and verifiers.
 */
import { createServiceFactory, createServiceRef, type ServiceFactory, type ServiceRef } from './service-ref.js';
import type { HostRegistries } from './registries.js';
import type { ProviderDefinition } from './contributions.js';
import type { SurfaceDefinition } from './routes.js';

/** What a plugin gets to contribute: `add(item)` records the item as that plugin's. */
export interface Registrar<T> {
  add(item: T): void;
}

export interface ContributionKind<T> {
  /** Registry name, e.g. 'handlers'. */
  readonly name: string;
  /** The field that identifies an item; two items with one key refuse start-up. */
  readonly key: keyof T & string;
  /** What a plugin asks for in `deps` to contribute items of this kind. */
  readonly registrar: ServiceRef<Registrar<T>, 'plugin'>;
}

function kind<T>(name: string, key: keyof T & string, serviceId: string = name): ContributionKind<T> {
  return { name, key, registrar: createServiceRef<Registrar<T>, 'plugin'>({ id: serviceId, scope: 'plugin' }) };
}

export const contributionKinds = {
  providers: kind<ProviderDefinition>('providers', 'slug'),
  /** REST surfaces; a plugin adds them through `services.routes`. */
  surfaces: kind<SurfaceDefinition>('surfaces', 'id', 'routes'),
} as const;

export type ContributionKinds = typeof contributionKinds;
export type KindName = keyof ContributionKinds;
export type ItemOf<K extends KindName> = ContributionKinds[K] extends ContributionKind<infer T> ? T : never;
export const kindNames = Object.keys(contributionKinds) as KindName[];

/**
 * The registrar services, plugin-scoped: the container builds one per plugin knowing its
 * id, so `add(item)` records that plugin as the owner by construction.
 */
export function registrarFactories(registries: HostRegistries): ServiceFactory[] {
  return (Object.values(contributionKinds) as Array<ContributionKind<unknown>>).map(
    (kind) =>
      createServiceFactory({
        service: kind.registrar,
        factory: (_deps, { pluginId }): Registrar<unknown> => ({
          add(item) {
            registries.registry(kind.name as KindName).add(pluginId, item as never);
          },
        }),
      }) as ServiceFactory,
  );
}
