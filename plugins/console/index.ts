/**
 * The admin console: a browser interface at /admin/ over the same REST API every client
 * uses (cookie session + nonce), built on the public SDK like any plugin. The page is a
 * frame; Preact modules (no bundler: tsc compiles web/, the browser loads ES modules
 * through an import map) draw the views. See docs/console.md.
 */
import { Readable } from 'node:stream';
import { definePlugin, defineSurface, errorBody, FLOWHOST_VERSION, page, services, stream, apiError } from '../../sdk/index.js';
import { asset } from './assets.js';
import { shell } from './shell.js';

const BASE = '/admin';
const ASSETS = `${BASE}/assets`;

export default definePlugin({
  id: 'console',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The admin console in the browser at /admin/: pipelines, flows, runs and logs over the REST API.',
  deps: { routes: services.routes, hostInfo: services.hostInfo, site: services.siteEvents },
  setup({ routes, hostInfo, site }) {
    // A signed-in user who may run the host lands in the console from the site's root.
    site.siteHome.tapPromise('console', async (user) => (user.can('manage_options') ? `${BASE}/` : undefined));
    const frame = shell({ assets: ASSETS, api: hostInfo.apiPrefix, namespace: hostInfo.coreNamespace, version: FLOWHOST_VERSION });
    routes.add(
      defineSurface({
        id: 'console',
        mount: 'site-root',
        routes: [
          {
            method: 'GET',
            path: `${BASE}/`,
            // The frame is the same for everyone; what it shows comes from the API, which
            // checks the session on every call.
            permission: 'public',
            credentials: 'ignored',
            summary: 'The admin console (sign in, pipelines, flows, runs, logs); /admin answers it too',
            schema: { responses: { 200: { type: 'string', contentMediaType: 'text/html' } } },
            handle: () =>
              page(200, frame.html, {
                'Content-Security-Policy': frame.csp,
                'Cache-Control': 'no-cache',
                'X-Content-Type-Options': 'nosniff',
                'X-Frame-Options': 'DENY',
                'Referrer-Policy': 'same-origin',
              }),
          },
          {
            method: 'GET',
            path: `${ASSETS}/{file}`,
            permission: 'public',
            credentials: 'ignored',
            summary: "The console's modules and style sheet (gzipped when the client accepts it)",
            schema: {
              params: { type: 'object', required: ['file'], properties: { file: { type: 'string', maxLength: 100 } } },
              responses: {
                200: { type: 'string', contentMediaType: '*/*', description: 'A JavaScript module or the style sheet.' },
                304: { type: 'string', description: 'Not modified.' },
                404: errorBody('rest_no_route'),
              },
            },
            handle(request) {
              const file = asset(request.params.file as string);
              if (!file) throw apiError('rest_no_route');
              const common = {
                'Content-Type': file.type,
                ETag: file.etag,
                'Cache-Control': 'no-cache',
                Vary: 'Accept-Encoding',
                'X-Content-Type-Options': 'nosniff',
              };
              if (request.headers['if-none-match'] === file.etag) return stream(304, Readable.from([]), common);
              const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
              const body = gzip ? file.gzip : file.body;
              return stream(200, Readable.from([body]), {
                ...common,
                ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
                'Content-Length': String(body.length),
              });
            },
          },
        ],
      }),
    );
  },
});
