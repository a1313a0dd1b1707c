import { createHash } from 'node:crypto';
import { importMap } from './assets.js';

/**
 * The one HTML page of the console: an empty frame the modules fill. Its only inline
 * script is the import map (data, not code), allowed by its hash, so the CSP stays strict:
 * no inline script, no eval, nothing from another origin.
 */
export function shell(options: { assets: string; api: string; namespace: string; version: string }): { html: string; csp: string } {
  const map = importMap(options.assets);
  const hash = createHash('sha256').update(map).digest('base64');
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Flowhost console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${attr(options.assets)}/console.css">
<script type="importmap">${map}</script>
<script type="module" src="${attr(options.assets)}/main.js"></script>
</head>
<body>
<div id="app" data-api="${attr(options.api)}" data-namespace="${attr(options.namespace)}" data-version="${attr(options.version)}"><p class="loading">Loading the console…</p></div>
<noscript>The Flowhost console needs JavaScript. The API and the <code>flowhost</code> CLI work without it.</noscript>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
