import type { ValidateFunction } from 'ajv';
import { compileShared, createAjv, schemaProblem } from '../../core/kernel/validator.js';
import { boundSchema } from '../../core/kernel/input-limits.js';
import type { Logger } from '../../core/kernel/logger.js';
import { surfaceRoutes, type HttpMethod, type Permission, type RouteDefinition, type SurfaceDefinition } from '../../core/kernel/routes.js';
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import { compileResponseValidators, effectiveResponses, type ResponseValidators } from './response-check.js';

export interface CompiledRoute {
  method: HttpMethod;
  /** Full path with `{param}` placeholders, e.g. /api/automation/v1/flows/{flow_id}. */
  fullPath: string;
  /** The same in restify's `:param` form. */
  routerPath: string;
  surfaceId: string;
  namespace: string;
  /** Plugin that contributed the surface ('host' for the host's own). */
  owner: string;
  definition: RouteDefinition;
  validateParams?: ValidateFunction;
  validateQuery?: ValidateFunction;
  validateBody?: ValidateFunction;
  /**
   * The body schema for a form-encoded body, whose values all arrive as strings: coerced
   * as query parameters are (`"7"` to 7, `"true"` to true, one value to a one-item array),
   * as WordPress reads form fields. Compiled on first use only, whatever the mode: few
   * routes ever see a form body.
   */
  validateFormBody?: ValidateFunction;
  /** Query parameters declared boolean: WordPress clients send 1/0 (and yes/no) for them. */
  booleanQuery: string[];
  /** Top-level body fields declared boolean: the same 1/0/yes/no, for form bodies. */
  booleanBody: string[];
  /** 'wordpress': WordPress's REST server behaviours, CORS and `_fields` (`SurfaceDefinition.rest`). */
  rest?: 'wordpress';
  /** Every answer by status: the route's declared `schema.responses` plus the dispatcher's own errors. */
  responses: Record<number, JsonSchema>;
  /** Check mode only: a validator per status (objects closed); an answer with another status fails. */
  validateResponses?: ResponseValidators;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function validPermission(permission: Permission | undefined): boolean {
  if (permission === 'public' || permission === 'authenticated') return true;
  if (!permission || typeof permission !== 'object') return false;
  if ('capability' in permission) return typeof permission.capability === 'string' && permission.capability.length > 0;
  if ('check' in permission) return typeof permission.check === 'function';
  return false;
}

/** The top-level properties a schema declares boolean. */
function booleanFields(schema: JsonSchema | undefined): string[] {
  return Object.entries(((schema as { properties?: unknown } | undefined)?.properties ?? {}) as Record<string, { type?: unknown }>)
    .filter(([, p]) => p.type === 'boolean')
    .map(([name]) => name);
}

/**
 * A validator compiled on first use. Compiling every route's schemas is most of a host's
 * start-up CPU and about 10 MB of resident code (ajv generates a function per schema), and
 * a host uses a fraction of its routes: each compiles when first called (about a
 * millisecond). A serving host checks each schema against the meta-schema at boot, so a
 * malformed one is still logged at start-up naming the route and its plugin; tests and check mode
 * compile everything eagerly, which also catches what only compiling finds.
 */
function lazyField<K extends 'validateParams' | 'validateQuery' | 'validateBody' | 'validateFormBody'>(
  route: CompiledRoute,
  field: K,
  compile: () => ValidateFunction,
): void {
  let value: ValidateFunction | undefined;
  Object.defineProperty(route, field, { enumerable: true, configurable: true, get: () => (value ??= compile()) });
}

/**
 * Turns surfaces into a route table: full paths under the prefix and namespace, compiled
 * validators, and the refusals the design requires — a route without a valid permission
 * is not registered (logged, naming the plugin), and two routes on one method + path
 * refuse start-up.
 */
export function compileRoutes(
  surfaces: ReadonlyArray<{ surface: SurfaceDefinition; owner: string }>,
  options: { apiPrefix: string; coreNamespace: string; log: Logger; checkResponses?: boolean; eagerSchemas?: boolean },
): CompiledRoute[] {
  // Path and query parameters arrive as strings: coerce them; drop undeclared query keys.
  const paramAjv = createAjv({ coerceTypes: 'array', removeAdditional: 'all' });
  const bodyAjv = createAjv();
  const formAjv = createAjv({ coerceTypes: 'array' });
  const table: CompiledRoute[] = [];
  const seen = new Map<string, CompiledRoute>();
  for (const { surface, owner } of surfaces) {
    const namespace =
      surface.mount === 'site-root'
        ? (surface.namespace ?? '').replace(/^\/+|\/+$/g, '')
        : (surface.namespace ?? options.coreNamespace).replace(/^\/+|\/+$/g, '');
    for (const definition of surfaceRoutes(surface)) {
      const label = `${definition.method} ${definition.path} (surface '${surface.id}', plugin '${owner}')`;
      if (!METHODS.includes(definition.method)) throw new Error(`Route ${label}: unsupported method`);
      if (!definition.path.startsWith('/')) throw new Error(`Route ${label}: path must start with '/'`);
      if (!validPermission(definition.permission)) {
        options.log.error({ route: label }, `Route ${label} declares no valid permission; it is not registered`);
        continue;
      }
      if (definition.credentials === 'page' && definition.method !== 'GET') {
        throw new Error(`Route ${label}: credentials 'page' is for GET navigations only`);
      }
      if (definition.schema?.upload && !definition.streamBody) {
        throw new Error(`Route ${label}: schema.upload describes a streamBody route's upload; this route's body is read by the host`);
      }
      if (definition.credentials === 'ignored' && definition.permission !== 'public') {
        throw new Error(`Route ${label}: credentials 'ignored' needs permission 'public' (nobody could ever be allowed)`);
      }
      const fullPath =
        surface.mount === 'site-root'
          ? definition.path
          : `${options.apiPrefix}/${namespace}${definition.path === '/' ? '' : definition.path}`;
      const key = `${definition.method} ${fullPath.replace(/\{[^}]+\}/g, '{}')}`;
      const clash = seen.get(key);
      if (clash) throw new Error(`Route ${label} is already registered by surface '${clash.surfaceId}' (plugin '${clash.owner}')`);
      const compiled: CompiledRoute = {
        method: definition.method,
        fullPath,
        routerPath: fullPath.replace(/\{([^}]+)\}/g, ':$1'),
        surfaceId: surface.id,
        namespace,
        owner,
        definition,
        booleanQuery: booleanFields(definition.schema?.query),
        booleanBody: booleanFields(definition.schema?.body),
        responses: effectiveResponses(definition, surface.rest),
        ...(surface.rest ? { rest: surface.rest } : {}),
      };
      const schema = definition.schema ?? {};
      // Every integer a safe integer, every number finite, whatever the plugin declared.
      const validators: Array<
        [keyof Pick<CompiledRoute, 'validateParams' | 'validateQuery' | 'validateBody'>, JsonSchema | undefined, typeof paramAjv]
      > = [
        ['validateParams', schema.params, paramAjv],
        ['validateQuery', schema.query, paramAjv],
        ['validateBody', schema.body, bodyAjv],
      ];
      for (const [field, source, ajv] of validators) {
        if (!source) continue;
        const compile = () => {
          try {
            return compileShared(ajv, boundSchema(source) as object);
          } catch (error) {
            throw new Error(`Route ${label}: invalid schema: ${(error as Error).message}`);
          }
        };
        if (options.eagerSchemas || options.checkResponses) compiled[field] = compile();
        else {
          // Reported, not fatal, as the warm-up after listening used to: the route fails on use.
          const problem = schemaProblem(source as object);
          if (problem) options.log.error(`Route ${label}: invalid schema: ${problem}`);
          lazyField(compiled, field, compile);
        }
      }
      if (schema.body) {
        const body = schema.body;
        lazyField(compiled, 'validateFormBody', () => compileShared(formAjv, boundSchema(body) as object));
      }
      try {
        if (options.checkResponses) compiled.validateResponses = compileResponseValidators(compiled.responses);
      } catch (error) {
        throw new Error(`Route ${label}: invalid response schema: ${(error as Error).message}`);
      }
      seen.set(key, compiled);
      table.push(compiled);
    }
  }
  return table;
}
