/** GET {prefix}/reference/assets/{file}: the viewer's files, from swagger-ui-dist (no CDN). */
import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { stream, type RouteDefinition } from '../../../core/kernel/routes.js';
import { errorBody } from '../../../core/kernel/response-schemas.js';
import { apiError } from '../../../core/errors/catalogue.js';
import type { SystemContext } from './context.js';

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
export const INITIALIZER = 'flowhost-reference.js';

let swaggerDir: string | null = null;
function swaggerUiDir(): string {
  swaggerDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return swaggerDir;
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

export function referenceAssetsRoute(ctx: SystemContext): RouteDefinition<{ file: string }> {
  return {
    method: 'GET',
    path: `${ctx.assetsPath}/{file}`,
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
        const text = Buffer.from(initializer(ctx.openapiPath));
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
}
