// Routes declared `fastPath` are answered from restify's first chain: the same answers as
// any route (schemas, permission, override, error bodies, timing hook), and the same
// route restify itself would have picked.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, defineSurface, services, successBody, type RequestTiming } from '../../../sdk/index.js';

const anything = { type: 'object', additionalProperties: true } as const;
import { fastLane } from '../../../host/http/fast-lane.js';
import { compileRoutes } from '../../../host/http/route-table.js';
import type { RouteDefinition } from '../../../sdk/index.js';
import { pino } from 'pino';

const silentLogger = pino({ level: 'silent' });

const timings: RequestTiming[] = [];
const echo: RouteDefinition = {
  method: 'POST',
  path: '/echo/{name}',
  permission: 'public',
  fastPath: true,
  schema: {
    params: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    query: { type: 'object', properties: { x: { type: 'integer' } } },
    body: { type: 'object', required: ['n'], additionalProperties: false, properties: { n: { type: 'integer' } } },
    responses: { 200: successBody({ name: { type: 'string' }, query: anything, body: anything }) },
  },
  handle: (request) => ({ success: true, name: (request.params as { name: string }).name, query: request.query, body: request.body }),
};
const routes: RouteDefinition[] = [
  echo,
  {
    method: 'POST',
    path: '/echo/static',
    permission: 'public',
    schema: { responses: { 200: successBody({ lane: { type: 'string' } }) } },
    handle: () => ({ success: true, lane: 'static' }),
  },
  {
    method: 'DELETE',
    path: '/echo/{name}',
    permission: 'public',
    schema: { responses: { 200: successBody({ deleted: { type: 'string' } }) } },
    handle: (request) => ({ success: true, deleted: (request.params as { name: string }).name }),
  },
  {
    method: 'GET',
    path: '/secret/{id}',
    permission: { capability: 'manage_options' },
    fastPath: true,
    schema: { responses: { 200: successBody({ id: { type: 'string' } }) } },
    handle: (request) => ({ success: true, id: request.params.id }),
  },
];
const plugin = definePlugin({
  id: 'fast-probe',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { routes: services.routes, hooks: services.hooks },
  setup(host) {
    host.routes.add(defineSurface({ id: 'fast-probe', namespace: 'fast/v1', routes }));
    host.hooks.requestFinished.tap('fast-probe', (timing) => void timings.push(timing));
  },
});

const test = suite<{ t: TestHost }>('host: fast-path routes');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [plugin] });
});
test.after(async (ctx) => ctx.t.stop());
const fast = { namespace: 'fast/v1' };

test('a fast route answers with its decoded parameter, its query and its body', async ({ t }) => {
  const res = await t.request<{ name: string; query: unknown; body: unknown }>('POST', '/echo/caf%C3%A9%20au%20lait/', {
    ...fast,
    query: { x: '3' },
    body: { n: 1 },
  });
  assert.is(res.status, 200);
  assert.is(res.body.name, 'café au lait');
  assert.equal(res.body.query, { x: 3 });
  assert.equal(res.body.body, { n: 1 });
  assert.ok(res.headers.get('x-request-id'));
  assert.is(timings.at(-1)!.route, '/api/fast/v1/echo/{name}');
  assert.is(timings.at(-1)!.status, 200);
});

test('its schemas apply: a bad parameter, query or body is the usual 400', async ({ t }) => {
  const long = await t.request<{ code: string; data: { params: Record<string, string> } }>('POST', `/echo/${'x'.repeat(21)}`, {
    ...fast,
    body: { n: 1 },
  });
  assert.is(long.status, 400);
  assert.is(long.body.code, 'rest_invalid_param');
  assert.ok(long.body.data.params.name);
  const body = await t.request<{ code: string }>('POST', '/echo/a', { ...fast, body: { n: 'one' } });
  assert.is(body.status, 400);
  assert.is(body.body.code, 'rest_invalid_param');
  const broken = await t.request<{ code: string }>('POST', '/echo/a', {
    ...fast,
    body: '{"n":',
    headers: { 'Content-Type': 'application/json' },
  });
  assert.is(broken.status, 400);
  assert.is(broken.body.code, 'rest_invalid_json');
});

test('a more specific route restify would pick keeps it, and the method override still applies', async ({ t }) => {
  const fixed = await t.request<{ lane: string }>('POST', '/echo/static', fast);
  assert.is(fixed.status, 200);
  assert.is(fixed.body.lane, 'static');
  const deleted = await t.request<{ deleted: string }>('POST', '/echo/gone', { ...fast, headers: { 'X-HTTP-Method-Override': 'DELETE' } });
  assert.is(deleted.status, 200);
  assert.is(deleted.body.deleted, 'gone');
  const viaQuery = await t.request<{ deleted: string }>('POST', '/echo/gone2', { ...fast, query: { _method: 'DELETE' } });
  assert.is(viaQuery.body.deleted, 'gone2');
});

test("a fast route's permission applies; HEAD is answered wherever GET is", async ({ t }) => {
  const anonymous = await t.request<{ code: string }>('GET', '/secret/7', { ...fast, as: 'anonymous' });
  assert.is(anonymous.status, 401);
  assert.is(anonymous.body.code, 'rest_not_logged_in');
  const admin = await t.request<{ id: string }>('GET', '/secret/7', fast);
  assert.is(admin.status, 200);
  assert.is(admin.body.id, '7');
  const head = await t.request('HEAD', '/secret/7', fast);
  assert.is(head.status, 200);
});

/** A raw request, so the path reaches the server exactly as written (fetch resolves dot segments itself). */
function rawPost(t: TestHost, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const url = new URL(t.url);
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: 'POST', path, headers: { 'Content-Type': 'application/json' } },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.end('{"n":2}');
  });
}

test('the path is read as restify reads it: dot segments resolved, unknown paths 404', async ({ t }) => {
  const dotted = await rawPost(t, '/api/fast/v1/other/../echo/dots');
  assert.is(dotted.status, 200);
  assert.is(dotted.body.name, 'dots');
  const missing = await rawPost(t, '/api/fast/v1/echo/a/b');
  assert.is(missing.status, 404);
  assert.is(missing.body.code, 'rest_no_route');
  const badEscape = await rawPost(t, '/api/fast/v1/echo/%E0%A4%A');
  assert.is(badEscape.status, 400);
  assert.is(badEscape.body.code, 'rest_invalid_url');
});

test('the lane takes only fast routes, and only for the method they declare', () => {
  const compiled = compileRoutes([{ owner: 'fast-probe', surface: defineSurface({ id: 'x', namespace: 'fast/v1', routes }) }], {
    apiPrefix: '/api',
    coreNamespace: 'automation/v1',
    log: silentLogger,
  });
  const match = fastLane(compiled);
  const req = (method: string, url: string) => ({ method, url, headers: {} }) as IncomingMessage;
  assert.is(match(req('POST', '/api/fast/v1/echo/a'))?.route.definition, echo);
  assert.equal(match(req('POST', '/api/fast/v1/echo/a%2Fb'))?.params, { name: 'a/b' });
  assert.equal(match(req('POST', '/api/fast/v1/echo/a?x=1#frag'))?.params, { name: 'a' });
  assert.equal(match(req('POST', '/api/fast/v1/other/../echo/dots/'))?.params, { name: 'dots' });
  assert.equal(match(req('POST', '/api/fast/v1/other/%2E%2e/echo/pct'))?.params, { name: 'pct' });
  assert.equal(match(req('POST', '/api/fast/v1/echo\\slash'))?.params, { name: 'slash' });
  assert.is(match(req('POST', '/api/fast/v1/echo/static')), null);
  assert.is(match(req('DELETE', '/api/fast/v1/echo/a')), null);
  assert.is(match(req('HEAD', '/api/fast/v1/secret/1'))?.route.fullPath, '/api/fast/v1/secret/{id}');
  assert.is(fastLane(compiled.filter((r) => !r.definition.fastPath))(req('POST', '/api/fast/v1/echo/a')), null);
});

test.run();
