// A test host reaches no service beyond this machine. OpenRouter's model catalogue is public,
// so a host lists it with no key set: a test host points OpenRouter at a closed loopback port
// unless the test names its own base URL (a test that lists providers once asked openrouter.ai).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { testConfig } from '../../sdk/testing/start-test-host.js';
import { createTestHost } from '../../sdk/testing/index.js';

const test = suite('sdk/testing: test hosts stay on this machine');

test('OpenRouter points at a closed loopback port by default; a test’s own settings win, per field', () => {
  const openrouter = (config: ReturnType<typeof testConfig>) => config.pluginSettings?.['provider-openrouter'];
  assert.match(String(openrouter(testConfig(undefined))?.base_url), /^http:\/\/127\.0\.0\.1:9\//);
  const given = testConfig({ pluginSettings: { 'provider-openrouter': { base_url: 'http://127.0.0.1:4000/v1' }, chat: { a: 1 } } });
  assert.is(openrouter(given)?.base_url, 'http://127.0.0.1:4000/v1');
  assert.equal(given.pluginSettings?.chat, { a: 1 });
  const keyOnly = testConfig({ pluginSettings: { 'provider-openrouter': { max_retries: 2 } } });
  assert.equal(openrouter(keyOnly), { base_url: 'http://127.0.0.1:9/api/v1', max_retries: 2 });
});

test('GET /providers on a test host lists OpenRouter’s built-in models, saying the catalogue was unreachable', async () => {
  const t = await createTestHost({ plugins: [] });
  try {
    const res = await t.request<{ providers: Record<string, { models_source: string; models_note?: string }> }>('GET', '/providers');
    assert.is(res.status, 200);
    assert.is(res.body.providers.openrouter?.models_source, 'built-in');
    assert.match(String(res.body.providers.openrouter?.models_note), /models list unavailable/);
  } finally {
    await t.stop();
  }
});

test.run();
