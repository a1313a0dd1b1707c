/**
 * The API index WordPress clients discover the API by (WP_REST_Server::get_index): at
 * `{prefix}/`, the site's name and address, the namespaces and every route under the
 * prefix in WordPress's shape — keys relative to the prefix, path parameters as
 * `(?P<id>[\d]+)`, methods and endpoints with their arguments, `_links.self` where the
 * route has no parameter. Also the namespace index of each WordPress-style namespace
 * (`{prefix}/wp/v2`), as WordPress's get_namespace_index answers it.
 */
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import { json, type RouteDefinition } from '../../core/kernel/routes.js';
import type { CompiledRoute } from './route-table.js';

type Properties = Record<string, JsonSchema & { type?: unknown; default?: unknown; enum?: unknown; description?: unknown }>;

interface RouteEntry {
  namespace: string;
  methods: string[];
  endpoints: Array<{ methods: string[]; args: Record<string, Record<string, unknown>> }>;
  _links?: { self: Array<{ href: string }> };
}

/** `/wp/v2/posts/{id}` → `/wp/v2/posts/(?P<id>[\d]+)`: integers as digits, anything else one segment. */
function wordpressPattern(route: CompiledRoute, relative: string): string {
  const params = ((route.definition.schema?.params as { properties?: Properties } | undefined)?.properties ?? {}) as Properties;
  return relative.replace(/\{([^}]+)\}/g, (_, name: string) =>
    params[name]?.type === 'integer' ? `(?P<${name}>[\\d]+)` : `(?P<${name}>[^/]+)`,
  );
}

/** An endpoint's arguments as WordPress lists them: type, required, default, enum, description. */
function argsOf(route: CompiledRoute): Record<string, Record<string, unknown>> {
  const schema = (route.method === 'GET' || route.method === 'DELETE' ? route.definition.schema?.query : route.definition.schema?.body) as
    | { properties?: Properties; required?: string[] }
    | undefined;
  const required = new Set(schema?.required ?? []);
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    out[name] = {
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
      ...(property.type !== undefined ? { type: property.type } : {}),
      ...(property.enum !== undefined ? { enum: property.enum } : {}),
      ...(property.default !== undefined ? { default: property.default } : {}),
      required: required.has(name),
    };
  }
  return out;
}

export function apiIndexRoutes(deps: {
  table: () => CompiledRoute[];
  apiPrefix: string;
  siteUrl: () => string;
  siteName: string;
}): RouteDefinition[] {
  const prefix = deps.apiPrefix;
  const routesUnder = (namespace?: string): Record<string, RouteEntry> => {
    const out: Record<string, RouteEntry> = {};
    for (const route of deps.table()) {
      if (!route.fullPath.startsWith(`${prefix}/`)) continue;
      if (namespace !== undefined && route.namespace !== namespace) continue;
      const relative = route.fullPath.slice(prefix.length);
      const key = wordpressPattern(route, relative);
      const entry = (out[key] ??= { namespace: route.namespace, methods: [], endpoints: [] });
      if (!entry.methods.includes(route.method)) entry.methods.push(route.method);
      entry.endpoints.push({ methods: [route.method], args: argsOf(route) });
      if (!relative.includes('{')) entry._links = { self: [{ href: `${deps.siteUrl()}${route.fullPath}` }] };
    }
    return out;
  };
  const namespaces = () => [
    ...new Set(
      deps
        .table()
        .filter((r) => r.fullPath.startsWith(`${prefix}/`) && r.namespace !== '')
        .map((r) => r.namespace),
    ),
  ];
  const wordpressNamespaces = [
    ...new Set(
      deps
        .table()
        .filter((r) => r.rest === 'wordpress' && r.namespace !== '')
        .map((r) => r.namespace),
    ),
  ].filter(
    // A namespace that serves its own root keeps it.
    (ns) => !deps.table().some((r) => r.fullPath === `${prefix}/${ns}` && r.method === 'GET'),
  );

  const index: RouteDefinition = {
    method: 'GET',
    path: `${prefix}/`,
    permission: 'public',
    summary: 'The API index (WordPress discovery): namespaces, routes, authentication',
    schema: {
      query: { type: 'object', properties: { context: { type: 'string', enum: ['view', 'help'] } } },
      responses: {
        200: {
          type: 'object',
          required: ['name', 'url', 'home', 'namespaces', 'authentication', 'routes'],
          // Every field is named (Redocly's lint wants each required one defined); routes and authentication are open maps.
          properties: {
            name: { type: 'string' },
            description: { type: 'string' },
            url: { type: 'string' },
            home: { type: 'string' },
            namespaces: { type: 'array', items: { type: 'string' } },
            authentication: { type: 'object', additionalProperties: true },
            routes: { type: 'object', additionalProperties: true },
          },
          additionalProperties: true,
        },
      },
    },
    handle: () =>
      json(200, {
        name: deps.siteName,
        description: '',
        url: deps.siteUrl(),
        home: deps.siteUrl(),
        // The host keeps every date in UTC (wp/v2's `date` and `date_gmt` agree).
        gmt_offset: 0,
        timezone_string: '',
        page_for_posts: 0,
        page_on_front: 0,
        show_on_front: 'posts',
        namespaces: namespaces(),
        // Application passwords are issued by the host's own user routes, not through
        // WordPress's authorize-application screen: no authorization endpoint to list.
        authentication: {},
        routes: routesUnder(),
        site_logo: 0,
        site_icon: 0,
        site_icon_url: '',
        _links: {},
      }),
  };

  const namespaceIndexes: RouteDefinition[] = wordpressNamespaces.map((namespace) => ({
    method: 'GET',
    path: `${prefix}/${namespace}`,
    permission: 'public',
    summary: `The ${namespace} namespace index: its routes`,
    schema: {
      responses: {
        200: {
          type: 'object',
          required: ['namespace', 'routes'],
          properties: { namespace: { type: 'string' }, routes: { type: 'object', additionalProperties: true } },
          additionalProperties: true,
        },
      },
    },
    handle: () => json(200, { namespace, routes: routesUnder(namespace), _links: { up: [{ href: `${deps.siteUrl()}${prefix}/` }] } }),
  }));

  return [index, ...namespaceIndexes];
}
