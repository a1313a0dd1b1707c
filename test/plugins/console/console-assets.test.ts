// The console's page and files as a browser and a proxy receive them: a strict CSP whose only
// inline script is the import map (allowed by its hash), every module gzipped and revalidated
// by ETag, nothing outside the allow-list served, and the first load within its budget.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { MODULES } from '../../../plugins/console/assets.js';

const test = suite<{ t: TestHost }>('console: the page, its files and its weight');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
});
test.after(async (ctx) => ctx.t.stop());

test('the frame: strict CSP, the import map allowed by its hash and nothing else inline', async ({ t }) => {
  const res = await fetch(`${t.url}/admin/`);
  assert.is(res.status, 200);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.not.match(csp, /unsafe-inline|unsafe-eval/);
  assert.match(csp, /frame-ancestors 'none'/);
  const html = await res.text();
  const inline = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  const bodies = inline.filter((m) => !/\bsrc=/.test(m[1]!));
  assert.is(bodies.length, 1, 'one inline script');
  assert.match(bodies[0]![1]!, /type="importmap"/);
  const hash = createHash('sha256').update(bodies[0]![2]!).digest('base64');
  assert.ok(csp.includes(`'sha256-${hash}'`), `the CSP allows the import map by its hash: ${csp}`);
  assert.is((await fetch(`${t.url}/admin`)).status, 200, '/admin answers the console too');
});

test('every module is served gzipped with an ETag; a matching If-None-Match is a 304; unknown names 404', async ({ t }) => {
  const res = await fetch(`${t.url}/admin/assets/main.js`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
  const etag = res.headers.get('etag')!;
  assert.ok(etag);
  assert.is((await fetch(`${t.url}/admin/assets/main.js`, { headers: { 'If-None-Match': etag } })).status, 304);
  for (const name of ['../package.json', 'secret.key', 'main.ts', '%2e%2e%2fpackage.json']) {
    const missing = await fetch(`${t.url}/admin/assets/${name}`);
    assert.ok(missing.status === 404, `${name}: ${missing.status}`);
  }
});

test('the first load: under 200 KB of compressed JavaScript and CSS', async ({ t }) => {
  const names = ['console.css', 'vendor-preact.js', 'vendor-hooks.js', 'vendor-jsx-runtime.js', ...MODULES];
  let total = 0;
  for (const name of names) {
    // node's fetch decompresses; read the wire size from a raw request instead.
    const res = await fetch(`${t.url}/admin/assets/${name}`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.is(res.status, 200, name);
    assert.is(res.headers.get('content-encoding'), 'gzip', name);
    total += Number(res.headers.get('content-length'));
    await res.arrayBuffer();
  }
  assert.ok(total > 5_000, `the files are there (${total} bytes)`);
  assert.ok(total < 200 * 1024, `first load: ${total} bytes compressed`);
  // And uncompressed clients get the same files whole.
  const plain = await fetch(`${t.url}/admin/assets/console.css`, { headers: { 'Accept-Encoding': 'identity' } });
  assert.is(plain.headers.get('content-encoding'), null);
  assert.match(await plain.text(), /:root/);
});

test.run();
