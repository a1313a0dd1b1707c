// Provider keys through PUT /settings (sealed in the store, masked in every answer, a sent
// mask keeps the key, '' removes it) and GET /providers (spec and admin-client shapes,
// defaults from the settings), on every store.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { createFakeModelApi, pluginSettingsFor, type FakeModelApi } from '../../support/fake-model-apis.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
const SLUGS = ['openai', 'anthropic', 'gemini', 'grok', 'openrouter'];

for (const store of testStores('provider settings and listing')) {
  type Ctx = { t: TestHost; openai: FakeModelApi; openrouter: FakeModelApi };
  const test = suite<Ctx>(`provider keys in settings and GET /providers (${store.label})`);

  test.before(async (ctx) => {
    ctx.openai = await createFakeModelApi('openai', { validKey: 'sk-test-0123456789abcdef' });
    // The aggregator lists hundreds of models.
    ctx.openrouter = await createFakeModelApi('openrouter', {
      models: Array.from({ length: 250 }, (_, i) => `vendor${i % 7}/model-${String(i).padStart(3, '0')}`),
    });
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: pluginSettingsFor([ctx.openai, ctx.openrouter]) },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.openai.server.close();
    await ctx.openrouter.server.close();
  });

  test('GET /providers before any key: five providers, none configured, built-in model lists (OpenRouter: its public catalogue)', async ({
    t,
    openai,
    openrouter,
  }) => {
    const res = await t.request<Body>('GET', '/providers');
    assert.is(res.status, 200);
    assert.equal(Object.keys(res.body.providers).sort(), [...SLUGS].sort());
    for (const slug of SLUGS) {
      const p = res.body.providers[slug];
      assert.is(p.configured, false);
      assert.ok(p.label && p.models.length >= 3, slug);
    }
    // OpenRouter's catalogue needs no key: listed from the service, asked without one.
    assert.equal(res.body.providers.openrouter.models, [...openrouter.models].sort());
    assert.is(res.body.providers.openrouter.models_source, 'service');
    const listed = openrouter.server.requests.filter((r) => r.url === '/api/v1/models');
    assert.is(listed.length, 1);
    assert.is(listed[0]!.headers.authorization, undefined, 'no key sent for the public catalogue');
    assert.is(res.body.providers.openai.models_source, 'built-in');
    assert.equal(res.body.data.providers, res.body.providers);
    assert.equal(res.body.data.defaults, {
      provider: Object.keys(res.body.providers)[0],
      model: res.body.providers[Object.keys(res.body.providers)[0]].models[0],
    });
    assert.is(openai.server.requests.length, 0, 'no key: the service is not asked');
  });

  test('PUT /settings takes provider keys: sealed in the store, masked on GET, kept when the mask comes back, removed with ""', async ({
    t,
    openai,
  }) => {
    const put = await t.request<Body>('PUT', '/settings', {
      body: { ai_provider_keys: { openai: openai.validKey, openrouter: 'short-key' }, default_provider: 'openai', default_model: 'gpt-4o' },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.is(put.body.data.settings.ai_provider_keys.openai, '••••••••cdef');
    assert.is(put.body.data.settings.ai_provider_keys.openrouter, '••••••••');
    assert.is(put.body.data.settings.ai_provider_keys.anthropic, '');
    const got = await t.request<Body>('GET', '/settings');
    assert.equal(got.body.data.settings.ai_provider_keys, put.body.data.settings.ai_provider_keys);
    assert.is(got.body.data.settings.default_provider, 'openai');
    assert.not.match(JSON.stringify(got.body), /0123456789abcdef|short-key/);
    // Sealed at rest: nothing in the settings collection holds the key.
    const docs: Body[] = await t.host.store.collection<Body>('settings').find({});
    const raw = JSON.stringify(docs);
    assert.not.match(raw, /0123456789abcdef|short-key/);
    const keys = docs.find((d) => d._id === 'provider_keys')!.keys;
    assert.match(keys.openai, /^fhv1:/);
    // The mask sent back keeps the key; '' removes one.
    await t.request('PATCH', '/settings', { body: { ai_provider_keys: { openai: '••••••••cdef', openrouter: '' } } });
    const after = (await t.request<Body>('GET', '/settings')).body.data.settings.ai_provider_keys;
    assert.is(after.openai, '••••••••cdef');
    assert.is(after.openrouter, '');
    const unknown = await t.request<Body>('PUT', '/settings', { body: { ai_provider_keys: { nope: 'x' } } });
    assert.is(unknown.status, 400);
    assert.is(unknown.body.code, 'provider_not_found');
    const bad = await t.request<Body>('PUT', '/settings', { body: { ai_provider_keys: { openai: 42 } } });
    assert.is(bad.status, 400);
  });

  test('GET /providers with keys: models from the services (the aggregator lists 250), defaults from the settings', async ({
    t,
    openai,
    openrouter,
  }) => {
    await t.request('PUT', '/settings', { body: { ai_provider_keys: { openrouter: openrouter.validKey } } });
    const res = await t.request<Body>('GET', '/providers');
    assert.is(res.status, 200);
    assert.is(res.body.providers.openai.configured, true);
    assert.equal(res.body.providers.openai.models, ['gpt-4o', 'gpt-4o-mini']);
    assert.is(res.body.providers.openrouter.models.length, 250);
    assert.ok(
      openrouter.server.requests.filter((r) => r.url === '/api/v1/models').every((r) => r.headers.authorization === undefined),
      'the catalogue is asked without the key, even when there is one',
    );
    assert.is(res.body.providers.anthropic.configured, false);
    assert.equal(res.body.data.defaults, { provider: 'openai', model: 'gpt-4o' });
    const listed = openai.server.requests.filter((r) => r.url === '/v1/models');
    assert.is(listed.at(-1)!.headers.authorization, `Bearer ${openai.validKey}`);
    const count = listed.length;
    await t.request('GET', '/providers');
    assert.is(openai.server.requests.filter((r) => r.url === '/v1/models').length, count, 'cached');
  });

  test("POST /providers/{slug}/test: ok with a good key, the provider's message with a wrong one", async ({ t }) => {
    const good = await t.request<Body>('POST', '/providers/openai/test');
    assert.is(good.status, 200);
    assert.equal(good.body.data, { provider: 'openai', ok: true, message: 'OpenAI accepted the API key' });
    await t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: 'sk-wrong' } } });
    const wrong = await t.request<Body>('POST', '/providers/openai/test');
    assert.is(wrong.status, 200);
    assert.is(wrong.body.data.ok, false);
    assert.is(wrong.body.data.code, 'key_refused');
    assert.match(wrong.body.data.message, /OpenAI refused the API key \(HTTP 401\): Incorrect API key provided/);
    const none = await t.request<Body>('POST', '/providers/anthropic/test');
    assert.is(none.body.data.code, 'not_configured');
    const missing = await t.request<Body>('POST', '/providers/nope/test');
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'provider_not_found');
    const editor = await t.createUser('ed', 'editor');
    assert.is((await t.request('POST', '/providers/openai/test', { as: editor })).status, 403);
  });

  test('a catalogue that cannot be reached: the built-in list, and the answer says so (each provider alike)', async ({
    t,
    openai,
    openrouter,
  }) => {
    await t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: openai.validKey, openrouter: '' } } });
    openrouter.modelsDown = true;
    openai.modelsDown = true;
    try {
      t.clock.advance(3601 * 1000);
      const res = await t.request<Body>('GET', '/providers');
      assert.is(res.status, 200, JSON.stringify(res.body));
      for (const [slug, fake] of [
        ['openrouter', openrouter],
        ['openai', openai],
      ] as const) {
        const p = res.body.providers[slug];
        assert.is(p.models_source, 'built-in', slug);
        assert.match(p.models_note, /models list unavailable \(HTTP 503: catalogue down\); using the built-in list/, slug);
        assert.not.equal(p.models, [...fake.models].sort(), slug);
      }
      assert.ok(res.body.providers.openrouter.models.includes('openai/gpt-4o-mini'), 'the built-in list');
      openrouter.modelsDown = false;
      openai.modelsDown = false;
      t.clock.advance(61 * 1000);
      const back = await t.request<Body>('GET', '/providers');
      assert.equal([back.body.providers.openrouter.models.length, back.body.providers.openrouter.models_source], [250, 'service']);
      assert.is(back.body.providers.openrouter.models_note, undefined);
    } finally {
      openrouter.modelsDown = false;
      openai.modelsDown = false;
    }
  });

  test.run();
}
