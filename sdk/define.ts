/**
 * The `define*` helpers: identity functions that give plugin authors types and catch
 * obvious mistakes at definition time, with messages that name what is wrong.
 */
import type { CliNounDefinition } from './kernel/cli.js';
import type { AnalyticsToolDefinition, AnalyticsToolPermission } from './analytics/tools.js';
import type { ChatToolDefinition } from './chat/index.js';
import type {
  AuthProviderDefinition,
  HandlerDefinition,
  IntervalDefinition,
  PostTypeDefinition,
  PresetDefinition,
  ProviderDefinition,
  StepTypeDefinition,
  TaxonomyDefinition,
  VerifierDefinition,
} from './kernel/contributions.js';
import type { RouteDefinition, SurfaceDefinition } from './kernel/routes.js';
import { checkTemplate, type HmacTemplate } from './webhooks/hmac-template.js';
import type {
  SchemaInput,
  TypeBoxSchema,
  TypedHandlerDefinition,
  TypedRouteDefinition,
  TypedRouteSchema,
  TypedToolDefinition,
} from './typed-schemas.js';
import type { Static } from 'typebox';

const SLUG = /^[a-z0-9][a-z0-9_-]*$/;

function requireSlug(kind: string, value: unknown): void {
  if (typeof value !== 'string' || !SLUG.test(value)) {
    throw new TypeError(`${kind}: '${String(value)}' is not a valid slug (lower-case letters, digits, '-' and '_')`);
  }
}

export { definePlugin } from './kernel/define-plugin.js';

/**
 * A handler. With a TypeBox `settings` schema its settings are typed by it (no type
 * argument); with a plain JSON schema, name their type: `defineHandler<MySettings>(...)`.
 */
export function defineHandler<Schema extends TypeBoxSchema>(definition: TypedHandlerDefinition<Schema>): HandlerDefinition<Static<Schema>>;
export function defineHandler<S = Record<string, unknown>>(definition: HandlerDefinition<S>): HandlerDefinition<S>;
export function defineHandler<S>(definition: HandlerDefinition<S>): HandlerDefinition<S> {
  requireSlug('defineHandler', definition.slug);
  if (!['fetch', 'publish', 'update'].includes(definition.type)) {
    throw new TypeError(`defineHandler '${definition.slug}': type must be fetch, publish or update`);
  }
  if (typeof (definition as unknown as Record<string, unknown>)[definition.type] !== 'function') {
    throw new TypeError(`defineHandler '${definition.slug}': a ${definition.type} handler needs a ${definition.type}() function`);
  }
  return definition;
}

export function defineProvider(definition: ProviderDefinition): ProviderDefinition {
  requireSlug('defineProvider', definition.slug);
  return definition;
}

/** An HMAC preset: its template typed as the webhooks domain reads it. */
export interface HmacPresetDefinition extends PresetDefinition {
  template: HmacTemplate;
}

/**
 * A webhook signature preset. The template is typed (`encoding: 'hex' | 'base64' |
 * 'base64url'`...) and checked here as a saved template would be, so a mistake fails where
 * it is written; the host checks every loaded preset again at boot, naming the plugin.
 */
export function definePreset(definition: HmacPresetDefinition): HmacPresetDefinition {
  requireSlug('definePreset', definition.slug);
  // A copy: the check applies defaults in place, and the author's object stays as written.
  const problems = checkTemplate(structuredClone(definition.template));
  if (problems.length) throw new TypeError(`definePreset '${definition.slug}': ${problems.join('; ')}`);
  return definition;
}

export function defineInterval(definition: IntervalDefinition): IntervalDefinition {
  requireSlug('defineInterval', definition.value);
  if (definition.seconds !== null && !(Number.isInteger(definition.seconds) && definition.seconds > 0)) {
    throw new TypeError(`defineInterval '${definition.value}': seconds must be a positive integer or null`);
  }
  return definition;
}

/**
 * The host validates a tool's arguments against `parameters` before `run`; with a TypeBox
 * schema `run` receives them typed. The registry holds the tool as data, arguments erased.
 */
export function defineAnalyticsTool<const P extends SchemaInput>(
  definition: TypedToolDefinition<P> & { permission?: AnalyticsToolPermission },
): AnalyticsToolDefinition {
  requireSlug('defineAnalyticsTool', definition.name);
  return definition as unknown as AnalyticsToolDefinition;
}

/** As `defineAnalyticsTool`: `run(args)` typed by a TypeBox `parameters` schema. */
export function defineChatTool<const P extends SchemaInput>(definition: TypedToolDefinition<P>): ChatToolDefinition {
  requireSlug('defineChatTool', definition.name);
  return definition as unknown as ChatToolDefinition;
}

export function defineVerifier(definition: VerifierDefinition): VerifierDefinition {
  requireSlug('defineVerifier', definition.mode);
  return definition;
}

export function defineAuthProvider(definition: AuthProviderDefinition): AuthProviderDefinition {
  requireSlug('defineAuthProvider', definition.key);
  return definition;
}

/**
 * A route whose `request.params`, `request.query` and `request.body` are typed by its
 * schemas: TypeBox ones, or plain ones whose type is a literal (written inline, which the
 * `const` type parameter keeps literal, or constants `as const`); a schema typed
 * `JsonSchema` leaves them `Record<string, unknown>`. The result is a plain route, for
 * `defineSurface({ routes: [...] })`.
 */
export function defineRoute<const S extends TypedRouteSchema = TypedRouteSchema>(definition: TypedRouteDefinition<S>): RouteDefinition {
  if (!definition.permission) {
    // The host refuses such a route as well; failing here tells the author sooner.
    throw new TypeError(`defineRoute ${definition.method} ${definition.path}: a route must declare its permission`);
  }
  // The host validates (and coerces) params, query and body against these schemas before
  // `handle` runs, so the static types hold; the route table stores routes untyped.
  return definition as unknown as RouteDefinition;
}

export function defineSurface(definition: SurfaceDefinition): SurfaceDefinition {
  requireSlug('defineSurface', definition.id);
  return definition;
}

export function defineStepType(definition: StepTypeDefinition): StepTypeDefinition {
  requireSlug('defineStepType', definition.type);
  if (definition.handlerType === null && typeof definition.run !== 'function') {
    throw new TypeError(`defineStepType '${definition.type}': a step type without a handler type needs run()`);
  }
  return definition;
}

/** A CLI noun of a plugin: `flowhost <noun> <command>`. */
export function defineCliNoun(definition: CliNounDefinition): CliNounDefinition {
  requireSlug('defineCliNoun', definition.noun);
  if (!Array.isArray(definition.commands) || definition.commands.length === 0)
    throw new TypeError(`defineCliNoun '${definition.noun}': give at least one command`);
  for (const command of definition.commands) {
    if (typeof command.run !== 'function')
      throw new TypeError(`defineCliNoun '${definition.noun}': command '${command.command}' has no run()`);
  }
  return definition;
}

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** A post type the content domain stores and wp/v2 serves at its `rest_base`. */
export function definePostType(definition: PostTypeDefinition): PostTypeDefinition {
  if (typeof definition.name !== 'string' || !NAME.test(definition.name))
    throw new TypeError(`definePostType: '${String(definition.name)}' is not a valid name (a-z, 0-9, '_', '-', at most 32)`);
  requireSlug(`definePostType '${definition.name}' rest_base`, definition.rest_base);
  for (const [key, schema] of Object.entries(definition.meta ?? {})) {
    // Meta keys are store field paths (docs/content-api.md): the same rule as wp/v2 writes.
    if (!/^[A-Za-z0-9][A-Za-z0-9_]{0,99}$/.test(key))
      throw new TypeError(`definePostType '${definition.name}': meta key '${key}' may hold only letters, digits and '_'`);
    if (!schema || typeof schema !== 'object' || Array.isArray(schema))
      throw new TypeError(`definePostType '${definition.name}': meta '${key}' needs a JSON Schema object`);
  }
  return definition;
}

/** A taxonomy of terms, served at its `rest_base` and carried by the post types it lists. */
export function defineTaxonomy(definition: TaxonomyDefinition): TaxonomyDefinition {
  // No '-': a taxonomy name is a field path segment in the stores (a post's `terms.<name>`).
  if (typeof definition.name !== 'string' || !/^[a-z][a-z0-9_]{0,31}$/.test(definition.name))
    throw new TypeError(`defineTaxonomy: '${String(definition.name)}' is not a valid name (a-z, 0-9, '_', at most 32)`);
  requireSlug(`defineTaxonomy '${definition.name}' rest_base`, definition.rest_base);
  if (!Array.isArray(definition.post_types))
    throw new TypeError(`defineTaxonomy '${definition.name}': post_types must be an array of post type names`);
  return definition;
}
