/** GET {prefix}/reference: the API reference viewer (swagger-ui) over this host's openapi.json. */
import { page, type RouteDefinition } from '../../../core/kernel/routes.js';
import type { SystemContext } from './context.js';
import { INITIALIZER } from './reference-assets.js';

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

export function referenceRoute(ctx: SystemContext): RouteDefinition {
  return {
    method: 'GET',
    path: ctx.referencePath,
    permission: 'public',
    credentials: 'ignored',
    summary: 'The API reference: openapi.json in a viewer (swagger-ui)',
    schema: { responses: { 200: { type: 'string', contentMediaType: 'text/html' } } },
    handle: () =>
      page(200, referencePage(ctx.assetsPath), {
        'Content-Security-Policy': REFERENCE_CSP,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      }),
  };
}
