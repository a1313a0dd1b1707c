import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHost, type InjectTestHost } from '../../../sdk/testing/index.js';
import discovery from '../../../plugins/discovery/index.js';
import { probePlugin } from '../../support/probe-plugin.js';

type Handlers = { success: boolean; data: Record<string, Record<string, unknown>> };
const test = suite<{ t: InjectTestHost }>('plugin discovery: GET /handlers and /providers');
test.before(async (ctx) => {
  ctx.t = await startTestHost({ plugins: [discovery, probePlugin()], config: { publicUrl: 'https://flows.example.org' } });
});
test.after(async (ctx) => ctx.t.stop());

test("handlers keyed by slug with exactly the spec fields, and a publish handler's text_limit", async ({ t }) => {
  const res = await t.request<Handlers>('GET', '/handlers');
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body.data).sort(), ['probe-feed', 'probe-social', 'probe-update']);
  assert.equal(res.body.data['probe-feed'], {
    type: 'fetch',
    class: 'probe/probe-feed',
    label: 'Probe feed',
    description: 'Fetches nothing.',
    requires_auth: false,
  });
  assert.equal(res.body.data['probe-social'], {
    type: 'publish',
    class: 'probe/probe-social',
    label: 'Probe social',
    description: 'Publishes nowhere.',
    requires_auth: true,
    auth_type: 'oauth2',
    auth_fields: ['app_id', 'app_secret'],
    callback_url: 'https://flows.example.org/flowhost-auth/probe-social/',
    is_authenticated: false,
    // Not in the spec's field list; its handler table's "Text limit" (docs/api.md).
    text_limit: 500,
  });
  assert.is(res.body.data['probe-update']!.class, 'Probe\\Update');
});

test('step_type filters; an unknown step_type is 400', async ({ t }) => {
  const res = await t.request<Handlers>('GET', '/handlers', { query: { step_type: 'publish' } });
  assert.equal(Object.keys(res.body.data), ['probe-social']);
  const bad = await t.request<{ code: string }>('GET', '/handlers', { query: { step_type: 'ai' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'rest_invalid_param');
});

test('one handler with its settings view; unknown is 404', async ({ t }) => {
  const res = await t.request<{ data: { slug: string; settings: Record<string, unknown> } }>('GET', '/handlers/probe-feed');
  assert.is(res.status, 200);
  assert.is(res.body.data.slug, 'probe-feed');
  assert.equal(res.body.data.settings, {});
  const missing = await t.request<{ code: string }>('GET', '/handlers/nope');
  assert.is(missing.status, 404);
  assert.is(missing.body.code, 'handler_not_found');
});

test('providers at the top level (spec) and under data (admin client)', async ({ t }) => {
  const res = await t.request<{
    providers: Record<string, unknown>;
    data: { providers: Record<string, unknown>; defaults: { provider: string; model: string } };
  }>('GET', '/providers');
  assert.is(res.status, 200);
  assert.equal(res.body.providers, {
    'probe-ai': { label: 'Probe AI', configured: true, models: ['probe-small', 'probe-large'] },
    'probe-off': { label: 'Probe Off', configured: false, models: [] },
  });
  assert.equal(res.body.data.providers, res.body.providers);
  assert.equal(res.body.data.defaults, { provider: 'probe-ai', model: 'probe-small' });
});

test.run();
