// The plugin's own tests, as its author would write them: sdk/testing starts a real host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from 'flowhost/testing';
import hello from '../index.js';
import { greet } from '../greeting.js';

const unit = suite('hello-plugin: greeting');
unit('greets by name and falls back to world', () => {
  assert.is(greet('Hi', 'Ada'), 'Hi, Ada!');
  assert.is(greet('Hi', '  '), 'Hi, world!');
});
unit.run();

const api = suite<{ t: TestHost }>('hello-plugin: on a test host');
api.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [hello], config: { pluginSettings: { hello: { greeting: 'Howdy' } } } });
});
api.after(async (ctx) => ctx.t.stop());

api('its handler is listed by GET /handlers', async ({ t }) => {
  const res = await t.request<{ data: Record<string, { type: string; label: string }> }>('GET', '/handlers');
  assert.is(res.status, 200);
  assert.is(res.body.data.hello?.type, 'fetch');
  assert.is(res.body.data.hello?.label, 'Hello');
});

api('GET greeting uses the configured greeting', async ({ t }) => {
  const res = await t.request<{ data: { message: string } }>('GET', '/greeting', { namespace: 'hello/v1', query: { name: 'Ada' } });
  assert.is(res.status, 200);
  assert.is(res.body.data.message, 'Howdy, Ada!');
});

api('POST greeting needs manage_options and validates its body', async ({ t }) => {
  const editor = await t.createUser('ed', 'editor');
  const forbidden = await t.request<{ code: string }>('POST', '/greeting', { namespace: 'hello/v1', as: editor, body: { name: 'x' } });
  assert.is(forbidden.status, 403);
  assert.is(forbidden.body.code, 'rest_forbidden');
  const missing = await t.request<{ code: string }>('POST', '/greeting', { namespace: 'hello/v1', body: {} });
  assert.is(missing.status, 400);
  assert.is(missing.body.code, 'rest_missing_callback_param');
  const created = await t.request<{ data: { message: string; count: number } }>('POST', '/greeting', { namespace: 'hello/v1', body: { name: 'Grace' } });
  assert.is(created.status, 201);
  assert.is(created.body.data.message, 'Howdy, Grace!');
  const nobody = await t.request<{ code: string }>('POST', '/greeting', { namespace: 'hello/v1', body: { name: 'nobody' } });
  assert.is(nobody.status, 400);
  assert.is(nobody.body.code, 'hello_nobody');
});

api('anonymous callers are refused', async ({ t }) => {
  const res = await t.request<{ code: string }>('GET', '/greeting', { namespace: 'hello/v1', as: 'anonymous' });
  assert.is(res.status, 401);
  assert.is(res.body.code, 'rest_not_logged_in');
});

api.run();
