/**
 * Typed service references, in the manner of Backstage's `createServiceRef`: a plugin
 * names what it uses in `deps`, and its `setup` receives the instances, typed. A
 * reference is only a name, a scope and a type; what builds the instance is a
 * `ServiceFactory`, provided by the host (kernel services) or by a plugin (`provides`).
 *
 * - root scope: one instance for the whole host (flows, jobs, content...).
 * - plugin scope: one instance per plugin that asks, built knowing which plugin it is for
 *   (its logger, its store namespace, its scheduler, its routes).
 */

export type ServiceScope = 'root' | 'plugin';

/** Brand (not `instanceof`): a plugin that resolved its own copy of the SDK still matches. */
export const SERVICE_REF = Symbol.for('flowhost.service-ref');
export const SERVICE_FACTORY = Symbol.for('flowhost.service-factory');

export interface ServiceRef<T, S extends ServiceScope = ServiceScope> {
  readonly [SERVICE_REF]: true;
  readonly id: string;
  readonly scope: S;
  /**
   * The tsyringe token: one registered symbol per service id. A plugin whose folder holds
   * its own copy of flowhost builds its references from that copy; keyed by id, they still
   * name the host's services. (Two providers of one id are refused by the container.)
   */
  readonly token: symbol;
  /** Type carrier only; never set. */
  readonly T?: T;
}

/** What a plugin or factory lists as `deps`. */
export type ServiceDeps = { readonly [name: string]: ServiceRef<unknown> };

/** `{ flows: ServiceRef<FlowsApi> }` → `{ flows: FlowsApi }`. */
export type ResolvedDeps<D extends ServiceDeps> = { -readonly [K in keyof D]: D[K] extends ServiceRef<infer T> ? T : never };

/** Who a plugin-scoped instance is built for. */
export interface PluginScopeContext {
  readonly pluginId: string;
}

export interface ServiceFactory<T = unknown, D extends ServiceDeps = ServiceDeps> {
  readonly [SERVICE_FACTORY]: true;
  readonly service: ServiceRef<T>;
  readonly deps: D;
  /** Root scope: called once. Plugin scope: once per plugin, with that plugin's id. */
  factory(deps: ResolvedDeps<D>, context: PluginScopeContext): T | Promise<T>;
}

const REF_ID = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9-]*)*$/;

export function createServiceRef<T, S extends ServiceScope = 'root'>(options: { id: string; scope?: S }): ServiceRef<T, S> {
  if (typeof options.id !== 'string' || !REF_ID.test(options.id)) {
    throw new TypeError(`createServiceRef: '${String(options.id)}' is not a valid service id (e.g. 'flows' or 'acme.weather')`);
  }
  return Object.freeze({
    [SERVICE_REF]: true as const,
    id: options.id,
    scope: (options.scope ?? 'root') as S,
    token: Symbol.for(`flowhost.service:${options.id}`),
  });
}

/**
 * A reference only the core can name: its token is a fresh symbol, not one keyed by id, so a
 * plugin that calls `createServiceRef({ id: 'rootStore' })` gets a reference nobody provides
 * instead of the whole store. Not exported from the SDK.
 */
export function createPrivilegedServiceRef<T>(id: string): ServiceRef<T, 'root'> {
  const ref = createServiceRef<T, 'root'>({ id, scope: 'root' });
  return Object.freeze({ ...ref, token: Symbol(`flowhost.privileged:${id}`) });
}

export function createServiceFactory<T, D extends ServiceDeps = Record<never, never>>(options: {
  service: ServiceRef<T>;
  deps?: D;
  factory(deps: ResolvedDeps<D>, context: PluginScopeContext): T | Promise<T>;
}): ServiceFactory<T, D> {
  if (!isServiceRef(options.service)) throw new TypeError('createServiceFactory: `service` must be a service reference (createServiceRef)');
  for (const [name, ref] of Object.entries(options.deps ?? {})) {
    if (!isServiceRef(ref))
      throw new TypeError(`createServiceFactory '${options.service.id}': dependency '${name}' is not a service reference`);
  }
  return { [SERVICE_FACTORY]: true, service: options.service, deps: (options.deps ?? {}) as D, factory: options.factory };
}

/** On a reference made by `optionalService`: what stands in when no loaded plugin provides it. */
export const OPTIONAL_SERVICE = Symbol.for('flowhost.service-ref.optional');

/**
 * A root service a plugin uses when its provider is loaded and does without otherwise:
 * `deps: { toolbox: optionalService(chatToolbox, () => noTools) }`. With the provider
 * loaded it is that provider's instance; without it the loader provides `fallback()`
 * instead of refusing to start (the MCP server serves chat's tools only in a build with chat).
 */
export function optionalService<T>(ref: ServiceRef<T, 'root'>, fallback: () => T): ServiceRef<T, 'root'> {
  if (!isServiceRef(ref) || ref.scope !== 'root') throw new TypeError('optionalService: `ref` must be a root service reference');
  return Object.freeze({ ...ref, [OPTIONAL_SERVICE]: fallback });
}

/** The stand-in of a reference made by `optionalService`, else undefined. */
export function optionalFallbackOf(ref: ServiceRef<unknown>): (() => unknown) | undefined {
  const fallback = (ref as unknown as Record<symbol, unknown>)[OPTIONAL_SERVICE];
  return typeof fallback === 'function' ? (fallback as () => unknown) : undefined;
}

export function isServiceRef(value: unknown): value is ServiceRef<unknown> {
  return !!value && typeof value === 'object' && (value as Record<symbol, unknown>)[SERVICE_REF] === true;
}

export function isServiceFactory(value: unknown): value is ServiceFactory {
  return !!value && typeof value === 'object' && (value as Record<symbol, unknown>)[SERVICE_FACTORY] === true;
}
