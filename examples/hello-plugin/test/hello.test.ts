// The plugin's own tests, as its author writes them: only `flowhost` and `flowhost/testing`,
// resolved from the installed package.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { services, type FetchHandler, type HandlerDefinition } from 'flowhost';
import { createTestHost, runHandler, type TestHost } from 'flowhost/testing';
import hello from '../index.js';
import { greet } from '../greeting.js';

const unit = suite('hello-plugin: greeting and handler, without a host');

unit('greets by name and falls back to world', () => {
  assert.is(greet('Hi', 'Ada'), 'Hi, Ada!');
  assert.is(greet('Hi', '  '), 'Hi, world!');
});

unit('the handler runs alone with runHandler; its settings are validated first', async () => {
  const added: HandlerDefinition[] = [];
  const fake = {
    add: (h: HandlerDefinition) => void added.push(h),
    every: async () => undefined,
    define: () => undefined,
    collection: () => ({ createIndex: async () => undefined }),
  };
  await hello.setup({
    handlers: fake,
    routes: fake,
    store: fake,
    scheduler: fake,
    clock: { now: () => new Date(0) },
    log: {},
    settings: { greeting: 'Hey' },
  } as never);
  const handler = added[0] as FetchHandler;
  const packets = await runHandler(handler, { name: 'Ada' });
  assert.is(packets[0]!.data.title, 'Hey, Ada!');
  try {
    await runHandler(handler, { name: 'Ada', color: 'red' });
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /invalid settings: color is not an allowed property/);
  }
});

unit.run();

const api = suite<{ t: TestHost }>('hello-plugin: on a test host');
api.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [hello], config: { pluginSettings: { hello: { greeting: 'Howdy' } } } });
});
api.after(async (ctx) => ctx.t.stop());

api('its handler is listed by GET /handlers and runs in a workflow', async ({ t }) => {
  const res = await t.request<{ data: Record<string, { type: string; label: string }> }>('GET', '/handlers');
  assert.is(res.status, 200);
  assert.is(res.body.data.hello?.type, 'fetch');
  const job = await t.executeAndWait({ workflow: { steps: [{ type: 'fetch', handler_slug: 'hello', handler_config: { name: 'Ada' } }] } });
  assert.is(job.status, 'completed');
});

api('GET greeting uses the configured greeting', async ({ t }) => {
  const res = await t.request<{ data: { message: string } }>('GET', '/greeting', { namespace: 'hello/v1', query: { name: 'Ada' } });
  assert.is(res.status, 200);
  assert.is(res.body.data.message, 'Howdy, Ada!');
});

api('POST greeting needs manage_options, validates its body and stores in its own collection', async ({ t }) => {
  const editor = await t.createUser('ed', 'editor');
  const forbidden = await t.request<{ code: string }>('POST', '/greeting', { namespace: 'hello/v1', as: editor, body: { name: 'x' } });
  assert.is(forbidden.status, 403);
  assert.is(forbidden.body.code, 'rest_forbidden');
  const missing = await t.request<{ code: string }>('POST', '/greeting', { namespace: 'hello/v1', body: {} });
  assert.is(missing.status, 400);
  assert.is(missing.body.code, 'rest_missing_callback_param');
  const created = await t.request<{ data: { message: string; count: number } }>('POST', '/greeting', {
    namespace: 'hello/v1',
    body: { name: 'Grace' },
  });
  assert.is(created.status, 201);
  assert.is(created.body.data.message, 'Howdy, Grace!');
  assert.is(created.body.data.count, 1);
  const nobody = await t.request<{ code: string }>('POST', '/greeting', { namespace: 'hello/v1', body: { name: 'nobody' } });
  assert.is(nobody.status, 400);
  assert.is(nobody.body.code, 'hello_nobody');
  // The collection is the plugin's own: namespaced by the host.
  assert.is(await t.host.store.collection('hello__greetings').count(), 1);
  assert.is(await t.host.store.collection('greetings').count(), 0);
});

api('its background job forgets greetings older than a day', async ({ t }) => {
  assert.is((await t.request<{ data: unknown[] }>('GET', '/greetings', { namespace: 'hello/v1' })).body.data.length, 1);
  t.clock.advance(2 * 86_400_000);
  const scheduler = await t.host.services.get(services.scheduler, 'hello');
  await scheduler.now('forget-old');
  for (let i = 0; i < 100; i++) {
    if ((await t.request<{ data: unknown[] }>('GET', '/greetings', { namespace: 'hello/v1' })).body.data.length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.unreachable('the job did not run');
});

api('its migration ran once on this store, before setup', async ({ t }) => {
  type Step = { id: string };
  const res = await t.request<{ data: Array<{ plugin: string; applied: Step[]; pending: Step[] }> }>('GET', '/plugins/migrations');
  assert.is(res.status, 200);
  const mine = res.body.data.find((p) => p.plugin === 'hello');
  assert.equal(mine && { applied: mine.applied.map((s) => s.id), pending: mine.pending }, {
    applied: ['2026-12-greetings-by-date'],
    pending: [],
  });
});

api('anonymous callers are refused', async ({ t }) => {
  const res = await t.request<{ code: string }>('GET', '/greeting', { namespace: 'hello/v1', as: 'anonymous' });
  assert.is(res.status, 401);
  assert.is(res.body.code, 'rest_not_logged_in');
});

api.run();
