import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { probePlugin } from '../../support/probe-plugin.js';

type Err = { code: string; message: string; data: { status: number; params?: unknown; request_id?: string } };
const test = suite<{ t: TestHost }>('host: error table');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [probePlugin()], config: { bodyLimit: 2048 } });
});
test.after(async (ctx) => ctx.t.stop());

const probe = { namespace: 'probe/v1' };

test('unknown route and unknown method are 404 rest_no_route', async ({ t }) => {
  const unknown = await t.request<Err>('GET', '/nothing-here', probe);
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'rest_no_route');
  assert.is(unknown.body.data.status, 404);
  assert.ok(unknown.body.message);
  const wrongMethod = await t.request<Err>('POST', '/items/1', probe);
  assert.is(wrongMethod.status, 404);
  assert.is(wrongMethod.body.code, 'rest_no_route');
  const outside = await t.request<Err>('GET', '/elsewhere', { absolute: true });
  assert.is(outside.status, 404);
  assert.is(outside.body.code, 'rest_no_route');
});

test('a route without a permission is not registered', async ({ t }) => {
  const res = await t.request<Err>('GET', '/unguarded', probe);
  assert.is(res.status, 404);
  assert.is(res.body.code, 'rest_no_route');
  assert.not.ok(t.host.routes.some((r) => r.fullPath.endsWith('/unguarded')));
});

test('bad JSON is 400 rest_invalid_json', async ({ t }) => {
  const res = await t.request<Err>('PUT', '/items/1', { ...probe, body: '{"name": ', headers: { 'Content-Type': 'application/json' } });
  assert.is(res.status, 400);
  assert.is(res.body.code, 'rest_invalid_json');
});

test('missing required field is 400 rest_missing_callback_param naming it', async ({ t }) => {
  const res = await t.request<Err>('PUT', '/items/1', { ...probe, body: { count: 2 } });
  assert.is(res.status, 400);
  assert.is(res.body.code, 'rest_missing_callback_param');
  assert.equal(res.body.data.params, ['name']);
  assert.match(res.body.message, /name/);
});

test('schema failures are 400 rest_invalid_param naming every field', async ({ t }) => {
  const res = await t.request<Err>('PUT', '/items/1', { ...probe, body: { name: '', count: -1, extra: true } });
  assert.is(res.status, 400);
  assert.is(res.body.code, 'rest_invalid_param');
  const params = res.body.data.params as Record<string, string>;
  assert.ok(params.name && params.count && params.extra, JSON.stringify(params));
  const badPath = await t.request<Err>('GET', '/items/abc', probe);
  assert.is(badPath.status, 400);
  assert.is(badPath.body.code, 'rest_invalid_param');
  assert.ok((badPath.body.data.params as Record<string, string>).id);
  const badQuery = await t.request<Err>('GET', '/items/1', { ...probe, query: { per_page: 1000 } });
  assert.is(badQuery.status, 400);
  assert.ok((badQuery.body.data.params as Record<string, string>).per_page);
});

test('anonymous on a protected route is 401 rest_not_logged_in', async ({ t }) => {
  const res = await t.request<Err>('GET', '/items/1', { ...probe, as: 'anonymous' });
  assert.is(res.status, 401);
  assert.is(res.body.code, 'rest_not_logged_in');
});

test('lacking the capability is 403 rest_forbidden', async ({ t }) => {
  const author = await t.createUser('author1', 'author');
  const res = await t.request<Err>('GET', '/items/1', { ...probe, as: author });
  assert.is(res.status, 403);
  assert.is(res.body.code, 'rest_forbidden');
  const allowed = await t.request('PATCH', '/items/1', { ...probe, as: author });
  assert.is(allowed.status, 200);
});

test('custom permission checks: the user themself or an admin', async ({ t }) => {
  const sub = await t.createUser('sub1', 'subscriber');
  assert.is((await t.request('GET', `/mine/${sub.userId}`, { ...probe, as: sub })).status, 200);
  assert.is((await t.request<Err>('GET', `/mine/${sub.userId + 100}`, { ...probe, as: sub })).body.code, 'rest_forbidden');
  assert.is((await t.request('GET', `/mine/${sub.userId + 100}`, probe)).status, 200);
});

test('a body over the limit is 413 and nothing reaches the handler', async ({ t }) => {
  const big = JSON.stringify({ name: 'x'.repeat(5000) });
  const res = await t.request<Err>('POST', '/echo', { ...probe, body: big });
  assert.is(res.status, 413);
  assert.is(res.body.code, 'rest_payload_too_large');
  assert.is(res.body.data.status, 413);
  const ok = await t.request<{ data: { size: number } }>('POST', '/echo', { ...probe, body: { name: 'small' } });
  assert.is(ok.status, 201);
});

test('an unexpected throw is 500 internal_error with a request id and no internals', async ({ t }) => {
  const res = await t.request<Err>('GET', '/boom', probe);
  assert.is(res.status, 500);
  assert.is(res.body.code, 'internal_error');
  assert.is(res.body.data.status, 500);
  const text = JSON.stringify(res.body);
  assert.not.match(text, /passwd|secret internals|at line|\.js:/);
  assert.is(res.body.data.request_id, res.headers.get('x-request-id'));
});

test('ApiError keeps its code, status and data', async ({ t }) => {
  const res = await t.request<Err & { data: { hint: string } }>('GET', '/teapot', probe);
  assert.is(res.status, 418);
  assert.equal(res.body, { code: 'probe_teapot', message: 'I am a teapot', data: { hint: 'tea', status: 418 } });
});

test('success bodies always carry success, status 200 or 201', async ({ t }) => {
  const patched = await t.request<Record<string, unknown>>('PATCH', '/items/3', probe);
  assert.is(patched.status, 200);
  assert.equal(patched.body, { success: true, patched: true });
  const created = await t.request<Record<string, unknown>>('POST', '/echo', { ...probe, body: {} });
  assert.is(created.status, 201);
  assert.is(created.body.success, true);
});

test.run();
