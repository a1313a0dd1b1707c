// Issue 52, headers: no `X-Content-Type-Options: nosniff` on API answers, no framing
// protection on the OAuth result page, no HSTS when the trusted proxy said https, any
// forwarded `Host` became the host of every link, and the request log kept an OAuth
// callback's `code` and `state`. Headers are the HTTP layer's, whatever the store: these
// hosts run on the embedded one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { definePlugin, defineSurface, services, stream } from '../../../sdk/index.js';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { loadConfig } from '../../../host/config/load-config.js';
import { allowedOrigins } from '../../../host/http/request-origin.js';
import { loggableUrl } from '../../../host/logging/request-url.js';
import { captureLogger } from '../../support/capture-logger.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const unit = suite('host: allowed hosts, HSTS settings and the logged URL');

unit('a forwarded host is used in links only when listed; otherwise the first listed host is', () => {
  const origin = allowedOrigins(['flows.example.org', 'admin.example.org:8443', '[2001:db8::1]']);
  assert.is(origin('https', 'flows.example.org'), 'https://flows.example.org');
  assert.is(origin('https', 'FLOWS.example.org:8443'), 'https://flows.example.org:8443', 'a name without a port is listed on every port');
  assert.is(origin('https', 'admin.example.org:8443'), 'https://admin.example.org:8443');
  assert.is(origin('https', 'admin.example.org'), 'https://flows.example.org', 'a name listed with a port is listed on that port only');
  assert.is(origin('http', '[2001:db8::1]:8080'), 'http://[2001:db8::1]:8080');
  assert.is(origin('https', 'evil.example'), 'https://flows.example.org');
  assert.is(origin('https', 'flows.example.org.evil.example'), 'https://flows.example.org');
  assert.is(origin('https', 'flows.example.org/x'), 'https://flows.example.org');
  assert.is(origin('https', undefined), 'https://flows.example.org');
  assert.is(allowedOrigins([])('https', 'evil.example'), null, 'no list: FLOWHOST_PUBLIC_URL decides');
});

unit('a trusted proxy needs FLOWHOST_PUBLIC_URL or FLOWHOST_ALLOWED_HOSTS; start-up stops naming both', () => {
  assert.throws(
    () => loadConfig({ env: { FLOWHOST_TRUST_PROXY: '127.0.0.1' } }),
    (error: Error) => error.message.includes('FLOWHOST_PUBLIC_URL') && error.message.includes('FLOWHOST_ALLOWED_HOSTS'),
  );
  assert.is(
    loadConfig({ env: { FLOWHOST_TRUST_PROXY: '127.0.0.1', FLOWHOST_PUBLIC_URL: 'https://flows.example.org' } }).trustProxy,
    '127.0.0.1',
  );
  assert.equal(
    loadConfig({ env: { FLOWHOST_TRUST_PROXY: 'loopback', FLOWHOST_ALLOWED_HOSTS: 'flows.example.org, 127.0.0.1:8443' } }).allowedHosts,
    ['flows.example.org', '127.0.0.1:8443'],
  );
  assert.is(loadConfig({ env: {} }).trustProxy, '', 'without a proxy nothing is needed');
  assert.throws(() => loadConfig({ env: { FLOWHOST_ALLOWED_HOSTS: 'flows.example.org/path' } }), /allowedHosts.*FLOWHOST_ALLOWED_HOSTS/);
});

unit('FLOWHOST_HSTS_MAX_AGE: a year by default, 0 allowed (browsers forget), nothing negative', () => {
  assert.is(loadConfig({ env: {} }).hstsMaxAge, 31_536_000);
  assert.is(loadConfig({ env: { FLOWHOST_HSTS_MAX_AGE: '0' } }).hstsMaxAge, 0);
  assert.throws(() => loadConfig({ env: { FLOWHOST_HSTS_MAX_AGE: '-1' } }), /hstsMaxAge.*FLOWHOST_HSTS_MAX_AGE/);
});

unit('the logged URL drops the values of secret-looking query parameters, and only those', () => {
  assert.is(loggableUrl('/flowhost-auth/x/?code=abc&state=def&page=2'), '/flowhost-auth/x/?code=[redacted]&state=[redacted]&page=2');
  assert.is(
    loggableUrl('/f?access_token=1&X-Amz-Signature=2&api%5Fkey=3&_wpnonce=4&oauth_verifier=5&Client-Secret=6&new_password=7'),
    '/f?access_token=[redacted]&X-Amz-Signature=[redacted]&api%5Fkey=[redacted]&_wpnonce=[redacted]&oauth_verifier=[redacted]&Client-Secret=[redacted]&new_password=[redacted]',
  );
  assert.is(loggableUrl('/wp/v2/posts?search=code&per_page=5&status=publish'), '/wp/v2/posts?search=code&per_page=5&status=publish');
  assert.is(loggableUrl('/healthz'), '/healthz');
  assert.is(loggableUrl('/x?token'), '/x?token', 'a name without a value has nothing to hide');
});

unit.run();

const basic = (t: TestHost) => `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;

/** A request Node's parser refuses (a header line without a colon): answered by the host without any route. */
function rawRefusal(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** A plugin whose page is a stream (as a file or a rendered template may be), not `page()`. */
const streamedPage = definePlugin({
  id: 'page-probe',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { routes: services.routes },
  setup(host) {
    host.routes.add(
      defineSurface({
        id: 'page-probe',
        namespace: 'page-probe/v1',
        routes: [
          {
            method: 'GET',
            path: '/page',
            permission: 'public',
            schema: { responses: { 200: { type: 'string', contentMediaType: 'text/html' } } },
            handle: () => stream(200, Readable.from(['<!doctype html><p>streamed</p>']), { 'Content-Type': 'text/html; charset=utf-8' }),
          },
        ],
      }),
    );
  },
});

const direct = suite<{ t: TestHost; lines: string[] }>(
  'host: nosniff on every answer, framing refused on pages, secrets out of the request log',
);
direct.before(async (ctx) => {
  ctx.lines = [];
  ctx.t = await createTestHost({ plugins: [streamedPage], logger: captureLogger(ctx.lines) });
});
direct.after(async (ctx) => ctx.t.stop());

direct('API answers, errors, pages and refusals before any route all carry X-Content-Type-Options: nosniff', async ({ t }) => {
  const answers = [
    await fetch(`${t.url}/api/automation/v1/handlers`, { headers: { Authorization: basic(t) } }),
    await fetch(`${t.url}/api/automation/v1/handlers`),
    await fetch(`${t.url}/api/no/such/route`),
    await fetch(`${t.url}/api/wp/v2/posts`),
    await fetch(`${t.url}/api/`),
    await fetch(`${t.url}/healthz`),
    await fetch(`${t.url}/`),
    await fetch(`${t.url}/api/wp/v2/posts`, { method: 'OPTIONS', headers: { Origin: 'https://other.example' } }),
    await fetch(`${t.url}/api/automation/v1/pipelines`, { method: 'TRACE' }).catch(() => null),
  ];
  for (const res of answers) {
    if (!res) continue;
    assert.is(res.headers.get('x-content-type-options'), 'nosniff', `${res.status} ${res.url}`);
  }
  assert.equal(
    answers.slice(0, 4).map((r) => r?.status),
    [200, 401, 404, 200],
  );
  assert.match(await rawRefusal(t.url), /^HTTP\/1\.1 400 [\s\S]*\r\nX-Content-Type-Options: nosniff\r\n/);
});

direct("the OAuth popup's result page cannot be framed, and its code and state never reach the request log", async ({ t, lines }) => {
  const res = await fetch(`${t.url}/flowhost-auth/spreadsheet-output/?code=c0de-4bc-secret&state=st4te-secret`, {
    headers: { Authorization: basic(t) },
  });
  const html = await res.text();
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/, `${res.status} ${html}`);
  assert.is(res.headers.get('x-frame-options'), 'DENY');
  assert.match(res.headers.get('content-security-policy') ?? '', "frame-ancestors 'none'");
  assert.is(res.headers.get('x-content-type-options'), 'nosniff');
  const logged = lines.filter((l) => l.includes('"msg":"request"') && l.includes('/flowhost-auth/'));
  assert.is(logged.length, 1, lines.join('\n'));
  assert.match(logged[0]!, '"url":"/flowhost-auth/spreadsheet-output/?code=[redacted]&state=[redacted]"');
  for (const secret of ['c0de-4bc-secret', 'st4te-secret'])
    assert.not.ok(
      lines.some((l) => l.includes(secret)),
      `${secret} was logged`,
    );
});

direct('every HTML page refuses framing: the site, the reference, the console', async ({ t }) => {
  for (const path of ['/', '/api/reference', '/wp-admin/']) {
    const res = await fetch(`${t.url}${path}`, { headers: { Authorization: basic(t) } });
    if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
    assert.is(res.headers.get('x-frame-options'), 'DENY', path);
  }
});

direct("a plugin's page sent as a stream of type text/html cannot be framed either", async ({ t }) => {
  const res = await fetch(`${t.url}/api/page-probe/v1/page`);
  assert.is(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  assert.is(res.headers.get('x-frame-options'), 'DENY');
  assert.is(res.headers.get('x-content-type-options'), 'nosniff');
});

direct('without a trusted proxy X-Forwarded-Proto: https earns no HSTS, and X-Forwarded-Host moves no link', async ({ t }) => {
  const res = await fetch(`${t.url}/api/`, { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' } });
  assert.is(res.headers.get('strict-transport-security'), null);
  assert.is(((await res.json()) as Body).url, t.url);
});

direct.run();

const proxied = suite<{ t: TestHost }>('host: behind a trusted proxy, HSTS over https and links on allowed hosts only');
proxied.before(async (ctx) => {
  // The test's requests come from 127.0.0.1, the proxy.
  ctx.t = await createTestHost({ plugins: [], config: { trustProxy: '127.0.0.1', allowedHosts: ['flows.example.org'], hstsMaxAge: 600 } });
});
proxied.after(async (ctx) => ctx.t.stop());

const via = (t: TestHost, path: string, headers: Record<string, string>) =>
  fetch(`${t.url}${path}`, { headers: { 'X-Forwarded-For': '198.51.100.7', ...headers } });

proxied('HSTS with the configured max-age on every answer the proxy says came over https, none over http', async ({ t }) => {
  for (const path of ['/api/', '/api/automation/v1/handlers', '/api/no/such/route', '/healthz', '/']) {
    const https = await via(t, path, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'flows.example.org' });
    assert.is(https.headers.get('strict-transport-security'), 'max-age=600', `${path} ${https.status}`);
    const http = await via(t, path, { 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'flows.example.org' });
    assert.is(http.headers.get('strict-transport-security'), null, path);
  }
  // The nearest proxy's claim is the one believed: a client's own "https" to the left is not.
  const claimed = await via(t, '/healthz', { 'X-Forwarded-Proto': 'https, http' });
  assert.is(claimed.headers.get('strict-transport-security'), null);
});

proxied('Host: evil.example through the proxy reaches no link: the index, the discovery Link, the OAuth URL', async ({ t }) => {
  const evil = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example', Authorization: basic(t) };
  const index = (await (await via(t, '/api/', evil)).json()) as Body;
  assert.is(index.url, 'https://flows.example.org');
  assert.is(index.home, 'https://flows.example.org');
  const site = await via(t, '/', evil);
  assert.match(site.headers.get('link') ?? '', '<https://flows.example.org/api/>');
  const everything = JSON.stringify(index) + (site.headers.get('link') ?? '') + (await site.text());
  assert.not.match(everything, 'evil.example');
  const status = (await (await via(t, '/api/automation/v1/auth/spreadsheet-output/status', evil)).json()) as Body;
  assert.is(status.data.oauth_url, 'https://flows.example.org/flowhost-auth/spreadsheet-output/');
  const openapi = (await (await via(t, '/api/openapi.json', evil)).json()) as Body;
  assert.not.match(JSON.stringify(openapi.servers), 'evil.example');
});

proxied('an allowed host on another port is kept in links, so a client is sent back where it came from', async ({ t }) => {
  const index = (await (
    await via(t, '/api/', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'flows.example.org:8443' })
  ).json()) as Body;
  assert.is(index.url, 'https://flows.example.org:8443');
});

proxied.run();
