// The API reference page: swagger-ui from the host itself (no CDN), pointed at openapi.json.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';

const test = suite<{ t: TestHost }>('host: API reference page');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
});
test.after(async (ctx) => {
  await ctx.t.stop();
});

test('GET {prefix}/reference is a public HTML page with a CSP and no inline script or CDN', async ({ t }) => {
  const res = await fetch(`${t.url}/api/reference`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, "script-src 'self'");
  assert.not.match(csp, /script-src[^;]*unsafe-inline/);
  assert.match(csp, "connect-src 'self'");
  const html = await res.text();
  assert.match(html, /^<!DOCTYPE html>/);
  assert.not.match(html, /<script>(?!<\/script>)/, 'no inline script');
  assert.not.match(html, /https?:\/\//, 'everything from this host');
  for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'flowhost-reference.js']) {
    assert.match(html, `/api/reference/assets/${file}`);
  }
  // Credentials are not read: a wrong password does not turn the page into a 401.
  const withBadAuth = await fetch(`${t.url}/api/reference`, { headers: { Authorization: 'Basic bm9ib2R5Ondyb25n' } });
  assert.is(withBadAuth.status, 200);
});

test('the assets are served with their types and cache headers', async ({ t }) => {
  const expected: Record<string, RegExp> = {
    'swagger-ui.css': /^text\/css/,
    'index.css': /^text\/css/,
    'swagger-ui-bundle.js': /^text\/javascript/,
    'swagger-ui-standalone-preset.js': /^text\/javascript/,
    'favicon-32x32.png': /^image\/png$/,
    'favicon-16x16.png': /^image\/png$/,
  };
  for (const [file, type] of Object.entries(expected)) {
    const res = await fetch(`${t.url}/api/reference/assets/${file}`);
    assert.is(res.status, 200, file);
    assert.match(res.headers.get('content-type') ?? '', type, file);
    assert.match(res.headers.get('cache-control') ?? '', /max-age=\d+/, file);
    assert.is(res.headers.get('x-content-type-options'), 'nosniff');
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.ok(bytes.length > 100, file);
    assert.is(Number(res.headers.get('content-length')), bytes.length, file);
  }
});

test('the initializer points the viewer at this host’s openapi.json', async ({ t }) => {
  const res = await fetch(`${t.url}/api/reference/assets/flowhost-reference.js`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/);
  const js = await res.text();
  assert.match(js, 'url: "/api/openapi.json"');
  assert.match(js, 'SwaggerUIBundle(');
  const doc = await fetch(`${t.url}/api/openapi.json`);
  assert.is(doc.status, 200);
});

test('an unknown asset is a 404, and nothing outside the allow-list is served', async ({ t }) => {
  for (const file of ['nope.js', 'package.json', 'swagger-ui.js.map', '..%2Fpackage.json', 'oauth2-redirect.html']) {
    const res = await fetch(`${t.url}/api/reference/assets/${file}`);
    assert.is(res.status, 404, file);
    assert.is(((await res.json()) as { code: string }).code, 'rest_no_route', file);
  }
});

test.run();
