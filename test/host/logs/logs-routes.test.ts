// GET/DELETE /logs and GET /logs/metadata end to end over HTTP, through a test plugin
// that wires logsSurface on the test host's store and fake clock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import type { LogsService } from '../../../core/logs/service.js';
import type { LogRecordView } from '../../../core/logs/model.js';

interface Fields {
  items: LogRecordView[];
  total: number;
  page: number;
  pages: number;
}
type ListBody = Fields & { success: boolean; data: Fields };
type ErrBody = { code: string; message: string; data: { status: number; params?: Record<string, string> } };

const test = suite<{ t: TestHost; logs: LogsService }>('host: logs routes');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  ctx.logs = ctx.t.host.logs;
});
test.before.each(async ({ t, logs }) => {
  await logs.delete();
  t.clock.set('2026-06-01T12:00:00.250Z');
});
test.after(async (ctx) => ctx.t.stop());

const list = (t: TestHost, query: Record<string, string | number> = {}) =>
  t.request<ListBody>('GET', '/logs', { query: { _locale: 'user', ...query } });
const messages = async (t: TestHost, query: Record<string, string | number>) => {
  const res = await list(t, query);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.items.map((i) => i.message);
};

test('GET /logs answers the spec shape under data and the admin client shape at the top', async ({ t, logs }) => {
  await logs.write({ level: 'warning', message: 'Missing optional key', context: { flow_id: 3, handler: 'rss' }, agent_id: 2, user_id: 1 });
  const res = await list(t);
  assert.is(res.status, 200);
  assert.is(res.body.success, true);
  const item = {
    id: res.body.items[0]!.id,
    agent_id: 2,
    user_id: 1,
    level: 'warning',
    message: 'Missing optional key',
    context: { flow_id: 3, handler: 'rss' },
    created_at: '2026-06-01 12:00:00',
  };
  assert.equal(res.body.data, { items: [item], total: 1, page: 1, pages: 1 });
  assert.equal({ items: res.body.items, total: res.body.total, page: res.body.page, pages: res.body.pages }, res.body.data);
  assert.match(res.body.items[0]!.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
});

test('every filter of the spec, with undeclared parameters ignored', async ({ t, logs }) => {
  t.clock.set('2026-06-01T00:00:00Z');
  await logs.write({
    level: 'error',
    message: 'Job 12 failed: a.b timeout',
    context: { job_id: 12, flow_id: 1, pipeline_id: 7 },
    agent_id: 1,
  });
  t.clock.set('2026-06-02T00:00:00Z');
  await logs.write({ level: 'error', message: 'Job 123 failed: axb', context: { job_id: 123, flow_id: 2, pipeline_id: 7 }, agent_id: 2 });
  t.clock.set('2026-06-03T00:00:00Z');
  await logs.write({ level: 'info', message: 'Flow (x) triggered', context: { flow_id: 1 } });
  assert.equal(await messages(t, { level: 'error' }), ['Job 123 failed: axb', 'Job 12 failed: a.b timeout']);
  assert.equal(await messages(t, { job_id: 12 }), ['Job 12 failed: a.b timeout']);
  assert.equal(await messages(t, { job_id: 123 }), ['Job 123 failed: axb']);
  assert.equal(await messages(t, { flow_id: 1 }), ['Flow (x) triggered', 'Job 12 failed: a.b timeout']);
  assert.equal(await messages(t, { pipeline_id: 7, agent_id: 2 }), ['Job 123 failed: axb']);
  assert.equal(await messages(t, { search: 'A.B' }), ['Job 12 failed: a.b timeout']);
  assert.equal(await messages(t, { search: '(x' }), ['Flow (x) triggered']);
  assert.equal(await messages(t, { since: '2026-06-01T23:59:59Z' }), ['Flow (x) triggered', 'Job 123 failed: axb']);
  assert.equal(await messages(t, { since: '2026-06-02T00:00:00Z' }), ['Flow (x) triggered']);
  assert.equal(await messages(t, { before: '2026-06-02' }), ['Job 12 failed: a.b timeout']);
  assert.equal(await messages(t, { since: '2026-06-01 23:59:59.999', before: '2026-06-02T03:00:00+02:00' }), ['Job 123 failed: axb']);
  // Empty level / search (as form clients send them) and unknown parameters filter nothing.
  assert.equal((await messages(t, { level: '', search: '', orderby: 'nonsense', agent_type: 'x' })).length, 3);
});

test('bad parameters are 400 rest_invalid_param naming the field', async ({ t }) => {
  const cases: Array<[Record<string, string | number>, string]> = [
    [{ per_page: 501 }, 'per_page'],
    [{ per_page: 0 }, 'per_page'],
    [{ page: 0 }, 'page'],
    [{ per_page: 'many' }, 'per_page'],
    [{ job_id: '12abc' }, 'job_id'],
    [{ job_id: '1.5' }, 'job_id'],
    [{ flow_id: -3 }, 'flow_id'],
    [{ agent_id: -1 }, 'agent_id'],
    [{ level: 'loud' }, 'level'],
    [{ since: 'yesterday' }, 'since'],
    [{ before: '2026-02-30' }, 'before'],
    [{ search: 'x'.repeat(201) }, 'search'],
  ];
  for (const [query, field] of cases) {
    const res = await t.request<ErrBody>('GET', '/logs', { query });
    assert.is(res.status, 400, JSON.stringify(query));
    assert.is(res.body.code, 'rest_invalid_param', JSON.stringify(query));
    assert.ok(res.body.data.params?.[field], `${JSON.stringify(query)} → ${JSON.stringify(res.body.data.params)}`);
  }
  assert.is((await list(t, { per_page: 500 })).status, 200);
});

test('pagination: per_page default 50, 1-based pages, ties newest id first', async ({ t, logs }) => {
  for (let i = 1; i <= 120; i++) await logs.write({ message: `m${i}` });
  const first = await list(t);
  assert.equal([first.body.total, first.body.pages, first.body.page, first.body.items.length], [120, 3, 1, 50]);
  // All 120 share one instant: the later-written entry comes first.
  assert.is(first.body.items[0]!.message, 'm120');
  const ids = first.body.items.map((i) => i.id);
  assert.equal(
    ids,
    [...ids].sort((a, b) => b - a),
  );
  const third = await list(t, { page: 3 });
  assert.equal(
    third.body.items.map((i) => i.message),
    Array.from({ length: 20 }, (_, k) => `m${20 - k}`),
  );
  assert.equal(third.body.data.page, 3);
  const small = await list(t, { per_page: 7, page: 2 });
  assert.equal([small.body.pages, small.body.items[0]!.message], [18, 'm113']);
});

test('GET /logs/metadata: data and top level, globally or per agent', async ({ t, logs }) => {
  const empty = await t.request<Record<string, unknown> & { data: Record<string, unknown> }>('GET', '/logs/metadata', {
    query: { _locale: 'user' },
  });
  assert.is(empty.status, 200);
  assert.equal(empty.body.data, { total_entries: 0, oldest: null, newest: null });
  assert.is(empty.body.total_entries, 0);
  t.clock.set('2026-06-01T08:00:00Z');
  await logs.write({ message: 'a', agent_id: 3 });
  t.clock.set('2026-06-02T09:30:00Z');
  await logs.write({ message: 'b' });
  const all = await t.request<Record<string, unknown> & { data: Record<string, unknown> }>('GET', '/logs/metadata');
  assert.equal(all.body.data, { total_entries: 2, oldest: '2026-06-01 08:00:00', newest: '2026-06-02 09:30:00' });
  assert.equal([all.body.total_entries, all.body.oldest, all.body.newest], [2, '2026-06-01 08:00:00', '2026-06-02 09:30:00']);
  const agent = await t.request<{ data: Record<string, unknown> }>('GET', '/logs/metadata', { query: { agent_id: 3 } });
  assert.equal(agent.body.data, { total_entries: 1, oldest: '2026-06-01 08:00:00', newest: '2026-06-01 08:00:00' });
  assert.is((await t.request('GET', '/logs/metadata', { query: { agent_id: 'x' } })).status, 400);
});

test('DELETE /logs: one agent from the query, then all; also as POST with method override', async ({ t, logs }) => {
  await logs.write({ message: 'a', agent_id: 1 });
  await logs.write({ message: 'b', agent_id: 1 });
  await logs.write({ message: 'c', agent_id: 2 });
  await logs.write({ message: 'd' });
  const one = await t.request<{ success: boolean; message: string; deleted_count: number }>('DELETE', '/logs', {
    query: { agent_id: 1, _locale: 'user' },
  });
  assert.is(one.status, 200);
  assert.is(one.body.success, true);
  assert.is(one.body.deleted_count, 2);
  assert.type(one.body.message, 'string');
  assert.equal(await messages(t, {}), ['d', 'c']);
  const rest = await t.request<{ success: boolean; deleted_count: number }>('POST', '/logs', {
    headers: { 'X-HTTP-Method-Override': 'DELETE' },
  });
  assert.equal([rest.status, rest.body.success, rest.body.deleted_count], [200, true, 2]);
  assert.is((await list(t)).body.total, 0);
  assert.is((await t.request('DELETE', '/logs', { query: { agent_id: 'all' } })).status, 400);
});

test('retention runs on the host clock: purgeOlderThan through the plugin host', async ({ t, logs }) => {
  t.clock.set('2026-06-01T00:00:00Z');
  await logs.write({ message: 'old' });
  t.clock.advance(10 * 86_400_000);
  await logs.write({ message: 'new' });
  t.clock.advance(86_400_000);
  assert.is(await logs.purgeOlderThan(0), 0);
  assert.is(await logs.purgeOlderThan(7), 1);
  assert.equal(await messages(t, {}), ['new']);
});

test.run();
