import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { probePlugin, type ProbeState } from '../../support/probe-plugin.js';
import discovery from '../../../plugins/discovery/index.js';
import { captureLogger } from '../../support/capture-logger.js';

const state: ProbeState = { calls: [] };
const test = suite<{ t: TestHost }>('host: transport rules of the original admin client');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [discovery, probePlugin(state)] });
});
test.after(async (ctx) => ctx.t.stop());
const probe = { namespace: 'probe/v1' };

test('POST + X-HTTP-Method-Override is routed as PUT, PATCH or DELETE', async ({ t }) => {
  const put = await t.request<{ data: { updated: unknown } }>('POST', '/items/7', {
    ...probe,
    body: { name: 'n' },
    headers: { 'X-HTTP-Method-Override': 'PUT' },
  });
  assert.is(put.status, 200);
  assert.equal(put.body.data.updated, { name: 'n' });
  assert.is(state.calls.at(-1)!.method, 'PUT');
  const patch = await t.request('POST', '/items/7', { ...probe, headers: { 'X-HTTP-Method-Override': 'PATCH' } });
  assert.is(patch.status, 200);
  assert.is(state.calls.at(-1)!.method, 'PATCH');
  const del = await t.request<{ data: { force: boolean } }>('POST', '/items/7', {
    ...probe,
    query: { force: 'true' },
    headers: { 'X-HTTP-Method-Override': 'DELETE' },
  });
  assert.is(del.status, 200);
  assert.is(del.body.data.force, true);
});

test("the overriding route's schema and permission apply", async ({ t }) => {
  const bad = await t.request<{ code: string }>('POST', '/items/7', { ...probe, body: {}, headers: { 'X-HTTP-Method-Override': 'PUT' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'rest_missing_callback_param');
  const author = await t.createUser('author-t', 'author');
  const denied = await t.request<{ code: string }>('POST', '/items/7', {
    ...probe,
    as: author,
    body: { name: 'x' },
    headers: { 'X-HTTP-Method-Override': 'PUT' },
  });
  assert.is(denied.status, 403);
  const get = await t.request('POST', '/items/7', { ...probe, headers: { 'X-HTTP-Method-Override': 'GET' } });
  assert.is(get.status, 404, 'only PUT, PATCH and DELETE may override');
});

test('undeclared query parameters are ignored, declared ones validated and coerced', async ({ t }) => {
  const res = await t.request<{ data: { id: number; query: Record<string, unknown> } }>('GET', '/items/5', {
    ...probe,
    query: { _locale: 'user', agent_id: 3, per_page: '5' },
  });
  assert.is(res.status, 200);
  assert.is(res.body.data.id, 5);
  assert.equal(res.body.data.query, { per_page: 5 });
  const defaults = await t.request<{ data: { query: Record<string, unknown> } }>('GET', '/items/5', {
    ...probe,
    query: { _locale: 'user' },
  });
  assert.equal(defaults.body.data.query, { per_page: 20 });
  const handlers = await t.request<{ success: boolean }>('GET', '/handlers', { query: { _locale: 'user' } });
  assert.is(handlers.status, 200);
});

test('repeated and [] query keys become arrays', async ({ t }) => {
  const url = `${t.url}/api/probe/v1/items/2?tags[]=a&tags[]=b&_locale=user`;
  const auth = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
  const res = (await (await fetch(url, { headers: { Authorization: auth } })).json()) as { data: { query: { tags: string[] } } };
  assert.equal(res.data.query.tags, ['a', 'b']);
  const single = (await (await fetch(`${t.url}/api/probe/v1/items/2?tags=solo`, { headers: { Authorization: auth } })).json()) as {
    data: { query: { tags: string[] } };
  };
  assert.equal(single.data.query.tags, ['solo']);
});

test('form-encoded bodies are decoded; empty bodies are {}', async ({ t }) => {
  const form = await t.request<{ data: { body: Record<string, unknown> } }>('POST', '/echo', {
    ...probe,
    body: 'a=1&b=two',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(form.body.data.body, { a: '1', b: 'two' });
  const empty = await t.request<{ data: { body: Record<string, unknown> } }>('POST', '/echo', probe);
  assert.equal(empty.body.data.body, {});
});

test('every response carries X-Request-Id', async ({ t }) => {
  const res = await t.request('GET', '/handlers');
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('healthz is public and reports the store', async ({ t }) => {
  const res = await t.request<{ success: boolean; status: string; store: { kind: string; status: string } }>('GET', '/healthz', {
    absolute: true,
    as: 'anonymous',
  });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'ok');
  assert.equal(res.body.store, { kind: 'embedded', status: 'ok' });
});

test('openapi.json lists every route with its schemas and permission', async ({ t }) => {
  const res = await t.request<{
    openapi: string;
    paths: Record<
      string,
      Record<string, { 'x-flowhost-permission': string; parameters: Array<{ name: string; in: string }>; requestBody?: unknown }>
    >;
  }>('GET', '/api/openapi.json', { absolute: true, as: 'anonymous' });
  assert.is(res.status, 200);
  assert.is(res.body.openapi, '3.1.0');
  const handlers = res.body.paths['/api/automation/v1/handlers']!.get!;
  assert.is(handlers['x-flowhost-permission'], 'capability:manage_options');
  assert.ok(handlers.parameters.some((p) => p.name === 'step_type' && p.in === 'query'));
  const put = res.body.paths['/api/probe/v1/items/{id}']!.put!;
  assert.ok(put.requestBody);
  assert.ok(put.parameters.some((p) => p.name === 'id' && p.in === 'path'));
  assert.is(res.body.paths['/healthz']!.get!['x-flowhost-permission'], 'public');
  assert.ok(res.body.paths['/api/automation/v1/session']!.post);
  for (const path of Object.keys(res.body.paths)) assert.not.match(path, /unguarded/);
});

test.run();

const prefixed = suite('host: configurable prefix and core namespace');
prefixed('FLOWHOST_API_PREFIX=/wp-json and a renamed core namespace', async () => {
  const t = await createTestHost({ plugins: [discovery], config: { apiPrefix: '/wp-json', coreNamespace: 'datamachine/v1' } });
  try {
    const auth = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
    const ok = await fetch(`${t.url}/wp-json/datamachine/v1/handlers?_locale=user`, { headers: { Authorization: auth } });
    assert.is(ok.status, 200);
    assert.is(((await ok.json()) as { success: boolean }).success, true);
    const old = await fetch(`${t.url}/api/automation/v1/handlers`, { headers: { Authorization: auth } });
    assert.is(old.status, 404);
    assert.is((await fetch(`${t.url}/wp-json/openapi.json`)).status, 200);
  } finally {
    await t.stop();
  }
});
prefixed.run();

const head = suite('host: HEAD through the GET route');
head('HEAD runs the GET route (its permission too), sends no body, and is logged as HEAD', async () => {
  const lines: string[] = [];
  const calls: ProbeState = { calls: [] };
  const t = await createTestHost({ plugins: [probePlugin(calls)], logger: captureLogger(lines) });
  try {
    const auth = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
    const url = `${t.url}/api/probe/v1/items/7?per_page=3`;
    const get = await fetch(url, { headers: { Authorization: auth } });
    const headers = await fetch(url, { method: 'HEAD', headers: { Authorization: auth } });
    assert.is(headers.status, 200);
    assert.is(await headers.text(), '');
    assert.is(headers.headers.get('content-length'), get.headers.get('content-length'), 'the headers GET would send');
    assert.is(calls.calls.length, 2, 'the GET route ran for both');
    assert.is((await fetch(url, { method: 'HEAD' })).status, 401, "the GET route's permission applies");
    const logged = lines
      .map((line) => JSON.parse(line) as { msg: string; method?: string; url?: string })
      .filter((l) => l.msg === 'request');
    assert.equal(
      logged.map((l) => l.method),
      ['GET', 'HEAD', 'HEAD'],
    );
  } finally {
    await t.stop();
  }
});
head.run();
