import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The console's files: its own modules (compiled from web/ by `npm run build`), its style
 * sheet, and Preact's ES modules straight from node_modules. Read and gzipped once, on the
 * first request for each (a host that never serves the console pays nothing), and served
 * with a content hash as ETag so a reload costs a 304.
 */
export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly etag: string;
}

const require = createRequire(import.meta.url);
// The compiled web/ folder, from the package root: `flowhost serve` runs from a bundle, where
// this module's URL is its chunk's, not dist/plugins/console/.
const here = join(dirname(require.resolve('flowhost/package.json')), 'dist', 'plugins', 'console');
const preactDir = () => dirname(require.resolve('preact/package.json'));

/** Where each public name is read from: an allow-list, so no path from a URL reaches the disk. */
function sources(): Record<string, { path: () => string; type: string }> {
  const js = 'text/javascript; charset=utf-8';
  const web = (name: string) => () => join(here, 'web', name);
  return {
    'console.css': { path: () => join(here, 'web', 'console.css'), type: 'text/css; charset=utf-8' },
    'vendor-preact.js': { path: () => join(preactDir(), 'dist/preact.mjs'), type: js },
    'vendor-hooks.js': { path: () => join(preactDir(), 'hooks/dist/hooks.mjs'), type: js },
    'vendor-jsx-runtime.js': { path: () => join(preactDir(), 'jsx-runtime/dist/jsxRuntime.mjs'), type: js },
    ...Object.fromEntries(MODULES.map((name) => [name, { path: web(name), type: js }])),
  };
}

/** The compiled modules of web/ (one line per file, as web/ grows). */
export const MODULES = [
  'main.js',
  'api.js',
  'router.js',
  'format.js',
  'components.js',
  'model.js',
  'settings-form.js',
  'portable.js',
  'ai-step-form.js',
  'view-sign-in.js',
  'view-set-password.js',
  'sign-in-again.js',
  'sign-out-everywhere.js',
  'view-pipelines.js',
  'view-pipeline.js',
  'view-flows.js',
  'view-flow.js',
  'view-jobs.js',
  'view-job.js',
  'view-job-record.js',
  'view-logs.js',
  'view-posts.js',
  'view-users.js',
  'view-credentials.js',
  'credential-card.js',
  'credentials-form.js',
  'credential-fields.js',
  'oauth-popup.js',
  'webhook-panel.js',
  'webhook-settings.js',
  'webhook-curl.js',
  'view-settings.js',
  'view-providers.js',
  'view-chat.js',
  'chat-messages.js',
  'access.js',
  'unsaved-changes.js',
  'surfaces.js',
  'cancel-run.js',
  'retry-run.js',
  'retry-selected.js',
  'alerts-model.js',
  'alerts-form.js',
  'alerts-section.js',
  'flow-history.js',
  'plugin-settings-section.js',
  'view-plugins.js',
  'view-review.js',
  'review-card.js',
  'waiting-count.js',
];

const cache = new Map<string, Asset>();

export function asset(name: string): Asset | undefined {
  const cached = cache.get(name);
  if (cached) return cached;
  const table = sources();
  const source = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!source) return undefined;
  const body = readFileSync(source.path());
  const made: Asset = {
    type: source.type,
    body,
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
  cache.set(name, made);
  return made;
}

/** The import map the shell carries: bare specifiers of the compiled modules to the vendor files. */
export function importMap(base: string): string {
  return JSON.stringify({
    imports: {
      preact: `${base}/vendor-preact.js`,
      'preact/hooks': `${base}/vendor-hooks.js`,
      'preact/jsx-runtime': `${base}/vendor-jsx-runtime.js`,
    },
  });
}
