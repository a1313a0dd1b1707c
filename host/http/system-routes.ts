import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { DocumentStore } from '../../core/store/port.js';
import type { Logger } from '../../core/kernel/logger.js';
import { json, page, reply, stream, type RouteDefinition } from '../../core/kernel/routes.js';
import { errorBody, successBody } from '../../core/kernel/response-schemas.js';
import { FLOWHOST_VERSION } from '../../core/kernel/version.js';
import { apiIndexRoutes } from './api-index.js';
import { buildOpenApi } from './openapi.js';
import { compileRoutes, type CompiledRoute } from './route-table.js';
import { apiError } from '../../core/errors/catalogue.js';

const HEALTH_TIMEOUT_MS = 3000;

/** Where the host is in its life: only `ready` takes traffic (GET /readyz). */
export type Readiness = 'starting' | 'ready' | 'stopping';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const storeState = (status: 'ok' | 'unavailable') => ({
  type: 'object',
  required: ['kind', 'status'],
  properties: { kind: { type: 'string' }, status: { const: status } },
});

/** The reference page's assets: swagger-ui-dist's files (no CDN) and the initializer. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};
/** Served from memory: points the viewer at this host's openapi.json (no inline script). */
const INITIALIZER = 'flowhost-reference.js';

let swaggerDir: string | null = null;
function swaggerUiDir(): string {
  swaggerDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return swaggerDir;
}

/**
 * Exactly what the viewer needs: its own scripts and styles from this host (swagger-ui
 * sets style attributes, hence 'unsafe-inline' for styles only), its icons (some are
 * data: URIs in its CSS), and fetching openapi.json from here; no inline script.
 */
export const REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function referencePage(assets: string): string {
  const a = escapeHtml(assets);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Flowhost API reference</title>
    <link rel="stylesheet" type="text/css" href="${a}/swagger-ui.css">
    <link rel="stylesheet" type="text/css" href="${a}/index.css">
    <link rel="icon" type="image/png" href="${a}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${a}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${a}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${a}/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="${a}/${INITIALIZER}" charset="UTF-8"></script>
  </body>
</html>
`;
}

function initializer(openapiUrl: string): string {
  return `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(openapiUrl)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;
}

/**
 * GET /healthz (store status; 503 when unusable), GET /readyz (200 only when started, not
 * stopping, and the store answers), GET {prefix}/openapi.json, the WordPress API index at
 * GET {prefix}/ (and {prefix}/wp/v2), and the API
 * reference viewer at GET {prefix}/reference (swagger-ui, its assets under
 * {prefix}/reference/assets/{file}).
 */
export function systemRoutes(deps: {
  routes: CompiledRoute[];
  store: DocumentStore;
  readiness: () => Readiness;
  apiPrefix: string;
  serverUrl: () => string;
  routeOptions: { apiPrefix: string; coreNamespace: string; log: Logger; checkResponses?: boolean };
}): CompiledRoute[] {
  const openapiPath = `${deps.apiPrefix}/openapi.json`;
  const referencePath = `${deps.apiPrefix}/reference`;
  const assetsPath = `${referencePath}/assets`;
  // The plugins' routes until the system's are compiled, then all of them (the index and
  // openapi.json list the whole table).
  let table: CompiledRoute[] = deps.routes;

  const health: RouteDefinition = {
    method: 'GET',
    path: '/healthz',
    permission: 'public',
    summary: 'Health: 200 when the store answers, 503 otherwise',
    schema: {
      responses: {
        200: successBody({ status: { const: 'ok' }, version: { type: 'string' }, store: storeState('ok') }),
        503: {
          type: 'object',
          required: ['success', 'code', 'message', 'data', 'status', 'store'],
          properties: {
            success: { const: false },
            code: { enum: ['store_unavailable'] },
            message: { type: 'string' },
            data: { type: 'object', required: ['status'], properties: { status: { const: 503 } } },
            status: { const: 'unavailable' },
            store: storeState('unavailable'),
          },
        },
      },
    },
    handle: async () => {
      try {
        // Bounded: a load balancer's probe must get an answer even while the database hangs.
        await withTimeout(deps.store.ping(), HEALTH_TIMEOUT_MS);
        return { success: true, status: 'ok', version: FLOWHOST_VERSION, store: { kind: deps.store.kind, status: 'ok' } };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = apiError('store_unavailable', { message: `The ${deps.store.kind} store is unavailable: ${reason}` });
        return reply(503, {
          success: false,
          ...failure.toBody(),
          status: 'unavailable',
          store: { kind: deps.store.kind, status: 'unavailable' },
        });
      }
    },
  };

  // Liveness (/healthz) and readiness differ: a host that is starting or stopping is alive
  // and must not be restarted, but a load balancer should send it nothing.
  const ready: RouteDefinition = {
    method: 'GET',
    path: '/readyz',
    permission: 'public',
    summary: 'Readiness: 200 when started and the store answers; 503 while starting, stopping or when the store does not answer',
    schema: {
      responses: {
        200: successBody({ status: { const: 'ready' }, store: storeState('ok') }),
        503: {
          type: 'object',
          required: ['success', 'code', 'message', 'data', 'status'],
          properties: {
            success: { const: false },
            code: { enum: ['host_starting', 'host_stopping', 'store_unavailable'] },
            message: { type: 'string' },
            data: { type: 'object', required: ['status'], properties: { status: { const: 503 } } },
            status: { enum: ['starting', 'stopping', 'unavailable'] },
            store: storeState('unavailable'),
          },
        },
      },
    },
    handle: async () => {
      const state = deps.readiness();
      if (state !== 'ready') {
        const failure = state === 'starting' ? apiError('host_starting') : apiError('host_stopping');
        return reply(503, { success: false, ...failure.toBody(), status: state }, { 'Retry-After': '1' });
      }
      try {
        await withTimeout(deps.store.ping(), HEALTH_TIMEOUT_MS);
        return { success: true, status: 'ready', store: { kind: deps.store.kind, status: 'ok' } };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = apiError('store_unavailable', { message: `The ${deps.store.kind} store is unavailable: ${reason}` });
        return reply(503, {
          success: false,
          ...failure.toBody(),
          status: 'unavailable',
          store: { kind: deps.store.kind, status: 'unavailable' },
        });
      }
    },
  };

  const openapi: RouteDefinition = {
    method: 'GET',
    path: openapiPath,
    permission: 'public',
    summary: 'This API as OpenAPI 3.1',
    description:
      'The OpenAPI 3.1 document, as is: unlike other core answers it carries no `success` key, which OpenAPI does not allow at its top level.',
    schema: {
      responses: {
        200: {
          type: 'object',
          required: ['openapi', 'info', 'paths', 'components'],
          properties: {
            openapi: { const: '3.1.0' },
            info: { type: 'object', additionalProperties: true },
            paths: { type: 'object', additionalProperties: true },
            components: { type: 'object', additionalProperties: true },
          },
          additionalProperties: true,
        },
      },
    },
    handle: () => json(200, buildOpenApi(table, { version: FLOWHOST_VERSION, serverUrl: deps.serverUrl() || '/' })),
  };

  const reference: RouteDefinition = {
    method: 'GET',
    path: referencePath,
    permission: 'public',
    credentials: 'ignored',
    summary: 'The API reference: openapi.json in a viewer (swagger-ui)',
    schema: { responses: { 200: { type: 'string', contentMediaType: 'text/html' } } },
    handle: () =>
      page(200, referencePage(assetsPath), {
        'Content-Security-Policy': REFERENCE_CSP,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      }),
  };

  const assets: RouteDefinition<{ file: string }> = {
    method: 'GET',
    path: `${assetsPath}/{file}`,
    permission: 'public',
    credentials: 'ignored',
    summary: "The reference viewer's scripts, styles and icons",
    schema: {
      params: { type: 'object', required: ['file'], properties: { file: { type: 'string', maxLength: 100 } } },
      responses: {
        200: { type: 'string', contentMediaType: '*/*', description: 'The file (CSS, JavaScript or PNG).' },
        404: errorBody('rest_no_route'),
      },
    },
    handle: (request) => {
      const file = request.params.file;
      const common = { 'X-Content-Type-Options': 'nosniff' };
      if (file === INITIALIZER) {
        const text = Buffer.from(initializer(openapiPath));
        return stream(200, Readable.from([text]), {
          ...common,
          'Content-Type': 'text/javascript; charset=utf-8',
          'Content-Length': String(text.length),
          'Cache-Control': 'no-cache',
        });
      }
      const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (!type) throw apiError('rest_no_route');
      const path = join(swaggerUiDir(), file);
      const size = statSync(path).size;
      return stream(200, createReadStream(path), {
        ...common,
        'Content-Type': type,
        'Content-Length': String(size),
        'Cache-Control': 'public, max-age=86400',
      });
    },
  };

  table = [
    ...deps.routes,
    ...compileRoutes(
      [
        {
          surface: { id: 'system', mount: 'site-root', routes: [health, ready, openapi, reference, assets as RouteDefinition] },
          owner: 'host',
        },
        // WordPress clients discover the API here, from other origins too.
        {
          surface: {
            id: 'api-index',
            mount: 'site-root',
            rest: 'wordpress',
            routes: apiIndexRoutes({ table: () => table, apiPrefix: deps.apiPrefix, siteUrl: deps.serverUrl, siteName: 'Flowhost' }),
          },
          owner: 'host',
        },
      ],
      deps.routeOptions,
    ),
  ];
  return table.slice(deps.routes.length);
}
