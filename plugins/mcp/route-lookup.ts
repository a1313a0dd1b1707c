/**
 * The route a tool stands for, found in the registered surfaces (after boot): its
 * permission decides who may see and call the tool, its schemas give a REST tool's
 * arguments. Looked up once per route and kept: the route table does not change while
 * the host runs.
 */
import type { JsonSchema, Permission, Principal, Registries, RouteDefinition } from '../../sdk/index.js';
import type { RouteRef } from './tool-map.js';

export interface RouteLookup {
  /** The route's definition; throws naming the route when no plugin serves it. */
  find(ref: RouteRef): RouteDefinition;
}

export function routeLookup(registries: Registries): RouteLookup {
  const found = new Map<string, RouteDefinition>();
  return {
    find(ref) {
      const key = `${ref.method} ${ref.namespace ?? ''} ${ref.path}`;
      const known = found.get(key);
      if (known) return known;
      for (const surface of registries.surfaces()) {
        if (surface.mount === 'site-root' || (surface.namespace ?? undefined) !== ref.namespace) continue;
        if (surface.namespace === undefined && ref.namespace !== undefined) continue;
        const routes = typeof surface.routes === 'function' ? surface.routes() : surface.routes;
        const route = routes.find((r) => r.method === ref.method && r.path === ref.path);
        if (route) {
          found.set(key, route as RouteDefinition);
          return route as RouteDefinition;
        }
      }
      throw new Error(`MCP: no route ${ref.method} ${ref.namespace ? `${ref.namespace} ` : ''}${ref.path} is registered`);
    },
  };
}

/**
 * Whether the caller passes the permission before a call (what the listing shows). A
 * route's own check function needs the request, so such a tool is listed to every
 * signed-in caller and the route decides when it is called.
 */
export function mayUse(permission: Permission, user: Principal): boolean {
  if (permission === 'public' || permission === 'authenticated') return true;
  if ('capability' in permission) return user.can(permission.capability);
  return true;
}

/** The permission as docs/mcp.md and openapi.json write it. */
export function permissionText(permission: Permission): string {
  if (permission === 'public' || permission === 'authenticated') return permission;
  if ('capability' in permission) return `capability:${permission.capability}`;
  return `check:${permission.description}`;
}

const plain = (schema: JsonSchema | undefined): Record<string, unknown> | undefined =>
  schema === undefined ? undefined : (JSON.parse(JSON.stringify(schema)) as Record<string, unknown>);

/** Where each argument of a REST tool goes. */
export interface ArgumentPlaces {
  params: string[];
  query: string[];
  /** The body's properties, or null when the body is one free-form object (argument `body`). */
  body: string[] | null;
}

/**
 * A REST tool's input schema: the route's path, query and body properties side by side,
 * less the query parameters the tool fixes (`fixed`).
 */
export function restInput(
  route: RouteDefinition,
  fixed: readonly string[] = [],
): { schema: Record<string, unknown>; places: ArgumentPlaces } {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const places: ArgumentPlaces = { params: [], query: [], body: [] };
  const take = (schema: JsonSchema | undefined, where: 'params' | 'query' | 'body') => {
    const object = plain(schema);
    if (!object) return;
    const props = (object.properties ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(props)) {
      if (where === 'query' && fixed.includes(name)) continue;
      if (name in properties) continue; // a path parameter wins over a query one of the same name
      properties[name] = value;
      (places[where] as string[]).push(name);
    }
    for (const name of (object.required as string[] | undefined) ?? [])
      if (!required.includes(name) && !(where === 'query' && fixed.includes(name))) required.push(name);
  };
  take(route.schema?.params, 'params');
  // Path parameters the schema leaves out are still needed: strings.
  for (const match of route.path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1]!;
    if (!(name in properties)) {
      properties[name] = { type: 'string', minLength: 1 };
      places.params.push(name);
    }
    if (!required.includes(name)) required.push(name);
  }
  take(route.schema?.query, 'query');
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    const body = plain(route.schema?.body);
    if (body && !body.properties && body.type === 'object') {
      properties.body = body;
      places.body = null;
    } else take(route.schema?.body, 'body');
  }
  return {
    schema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    places,
  };
}
