/**
 * Extension points owned by the plugins that consume them, in the manner of Backstage's
 * `createExtensionPoint`: the chat plugin owns chat tools, the analytics plugin analytics
 * tools, a third-party plugin whatever it wants others to feed it. The kernel knows none
 * of them; it only keeps each declared point's list of `{owner, item}`.
 *
 * - The owner declares the point (`extensionPoints: [point]`) and reads what was added
 *   through `deps: { x: point.contributions }`, once every plugin's setup has run.
 * - A contributor lists the point itself in `deps` and calls `add(item)`; the item is
 *   recorded as that plugin's.
 * - A contributor whose point's owner is not loaded stops start-up naming both, unless it
 *   lists `point.optional` instead: then what it adds is dropped when the owner is absent
 *   (docsync's chat tools in a build without chat).
 */
import type { Registrar } from './contribution-kinds.js';
import type { JsonSchema } from './json-schema.js';
import type { RegistryEntry } from './registry.js';
import { createServiceRef, type ServiceRef } from './service-ref.js';

/** Brand (not `instanceof`): a point made by another copy of the SDK still matches. */
export const EXTENSION_POINT = Symbol.for('flowhost.extension-point');
/** On `point.optional`: the id of the point it contributes to. */
export const OPTIONAL_CONTRIBUTION = Symbol.for('flowhost.extension-point.optional');
/** On `point.contributions`: the id of the point it reads. */
export const POINT_READING = Symbol.for('flowhost.extension-point.contributions');

/** What the owning plugin reads: the items every plugin added, sealed at boot. */
export interface ExtensionPointContributions<T> {
  /** Every item, in the order added (plugin order, then call order). Throws before boot. */
  list(): readonly T[];
  /** Items with the plugin that added each. Throws before boot. */
  entries(): ReadonlyArray<RegistryEntry<T>>;
  /** The item with this key. Throws before boot. */
  get(key: string): T | undefined;
  /** The plugin that added the item with this key. */
  ownerOf(key: string): string | undefined;
}

export interface ExtensionPointOptions<T extends object> {
  /** The point's id, prefixed by its owner's: 'chat.tools', 'acme-weather.sources'. */
  id: string;
  /** The id of the plugin that declares and consumes the point. */
  owner: string;
  /** The field that identifies an item; a second item with a taken key stops start-up naming both plugins. */
  key: keyof T & string;
  /** One line on what an item is, for the people who read the declaration. */
  description?: string;
  /** Checks one item when it is added; throw an Error saying what is wrong (the plugin and key are added). */
  check?(item: T): void;
  /** The JSON Schema an item brings (a tool's parameters...): compiled at boot with every other plugin schema. */
  schemaOf?(item: T): JsonSchema | undefined;
}

/** Any extension point, whatever its items: what a plugin lists in `extensionPoints`. */
export interface ExtensionPointDeclaration extends ServiceRef<unknown, 'plugin'> {
  readonly [EXTENSION_POINT]: true;
  readonly owner: string;
  readonly key: string;
  readonly description?: string;
  readonly contributions: ServiceRef<unknown, 'plugin'>;
}

/**
 * An extension point: list it in `deps` to contribute (`point.add(item)`), in
 * `extensionPoints` to own it, and `point.contributions` in the owner's `deps` to read.
 */
export interface ExtensionPoint<T extends object> extends ServiceRef<Registrar<T>, 'plugin'> {
  readonly [EXTENSION_POINT]: true;
  readonly owner: string;
  readonly key: keyof T & string;
  readonly description?: string;
  /** The owner's reading of the point; only the owner may list it in `deps`. */
  readonly contributions: ServiceRef<ExtensionPointContributions<T>, 'plugin'>;
  /** The point for a contributor that works without its owner: adds are dropped when the owner is not loaded. */
  readonly optional: ServiceRef<Registrar<T>, 'plugin'>;
  check?(item: T): void;
  schemaOf?(item: T): JsonSchema | undefined;
}

export function createExtensionPoint<T extends object>(options: ExtensionPointOptions<T>): ExtensionPoint<T> {
  const ref = createServiceRef<Registrar<T>, 'plugin'>({ id: options.id, scope: 'plugin' });
  if (typeof options.owner !== 'string' || options.owner === '')
    throw new TypeError(`createExtensionPoint '${options.id}': name the plugin that owns it (owner)`);
  if (typeof options.key !== 'string' || options.key === '')
    throw new TypeError(`createExtensionPoint '${options.id}': name the field that identifies an item (key)`);
  return Object.freeze({
    ...ref,
    [EXTENSION_POINT]: true as const,
    owner: options.owner,
    key: options.key,
    description: options.description,
    contributions: Object.freeze({
      ...createServiceRef<ExtensionPointContributions<T>, 'plugin'>({ id: `${options.id}.contributions`, scope: 'plugin' }),
      [POINT_READING]: options.id,
    }),
    optional: Object.freeze({
      ...createServiceRef<Registrar<T>, 'plugin'>({ id: `${options.id}.optional`, scope: 'plugin' }),
      [OPTIONAL_CONTRIBUTION]: options.id,
    }),
    check: options.check,
    schemaOf: options.schemaOf,
  });
}

/** The point id an optional contribution reference (`point.optional`) adds to, else undefined. */
export function optionalContributionTo(ref: ServiceRef<unknown>): string | undefined {
  const id = (ref as unknown as Record<symbol, unknown>)[OPTIONAL_CONTRIBUTION];
  return typeof id === 'string' ? id : undefined;
}

/**
 * The point id a reading reference (`point.contributions`) reads, else undefined. A root
 * service its owner provides may list it in its own `deps` (the domain's service reads the
 * live list at call time; the container builds the reading for the providing plugin).
 */
export function pointReadBy(ref: ServiceRef<unknown>): string | undefined {
  const id = (ref as unknown as Record<symbol, unknown>)[POINT_READING];
  return typeof id === 'string' ? id : undefined;
}

export function isExtensionPoint(value: unknown): value is ExtensionPointDeclaration {
  return !!value && typeof value === 'object' && (value as Record<symbol, unknown>)[EXTENSION_POINT] === true;
}
