// Plugin settings at run time (issue 54) on both stores: a plugin's settings are read and
// changed through GET/PATCH /plugins/{id}/settings by administrators; a writeOnly setting
// is sealed in the store and never appears in a response or a log line; a plugin with
// onSettingsChanged sees a change at once (its hook and services.config), one without it
// is answered restart_required and gets the value at its next start; an invalid value is
// a 400 naming the field; dispose runs on stop in reverse load order.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { definePlugin, services } from '../../../sdk/index.js';
import { startTestHost, type InjectTestHost } from '../../../sdk/testing/index.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { createHost } from '../../../host/create-host.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { captureLogger } from '../../support/capture-logger.js';
import { testStores } from '../../support/test-stores.js';

const SECRET = 'sk-live-7f3a9c1e5b2d4680aa';
const SECOND_SECRET = 'sk-live-0b1c2d3e4f5a6b7c8d';

interface ProbeSettings {
  greeting: string;
  limit: number;
  api_key?: string;
}

const schema = {
  type: 'object',
  properties: {
    greeting: { type: 'string', default: 'hello', maxLength: 40 },
    limit: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    api_key: { type: 'string', writeOnly: true },
  },
  additionalProperties: false,
} as const;

/** A plugin recording what services.config holds, each settings change it hears, and its disposal. */
function probe(id: string, events: string[], options: { live: boolean }) {
  let config: ProbeSettings | undefined;
  const seen: ProbeSettings[] = [];
  const plugin = definePlugin({
    id,
    version: '1.0.0',
    flowhost: '^1.0.0',
    settingsSchema: schema,
    deps: { config: services.configOf<ProbeSettings>() },
    setup(deps) {
      config = deps.config;
      events.push(`setup:${id}`);
    },
    ...(options.live
      ? { onSettingsChanged: (next: Readonly<Record<string, unknown>>) => void seen.push(next as unknown as ProbeSettings) }
      : {}),
    dispose() {
      events.push(`dispose:${id}`);
      if (id === 'settings-live') throw new Error('dispose of settings-live failed on purpose');
    },
  });
  return { plugin, seen, config: () => config };
}

for (const store of testStores('host: plugin settings')) {
  const test = suite(`host: plugin settings at run time (${store.label})`);
  const configOf = (): Partial<HostConfig> => ({ ...store.config(), dataDir: mkdtempSync(join(tmpdir(), 'flowhost-psettings-')) });

  async function boot(config: Partial<HostConfig>, events: string[], lines: string[]) {
    const live = probe('settings-live', events, { live: true });
    const later = probe('settings-later', events, { live: false });
    const host = await startTestHost({
      plugins: [live.plugin, later.plugin],
      config: { ...config, pluginSettings: { 'settings-later': { greeting: 'from the file', limit: 2 } } },
      logger: captureLogger(lines),
    });
    return { host, live, later };
  }

  /** Every body this test saw, to scan for the secret. */
  const bodies: string[] = [];
  const call = async (host: InjectTestHost, method: string, path: string, body?: unknown, as?: { login: string; password: string }) => {
    const res = await host.request<{ data: Record<string, unknown>; code?: string; message?: string }>(method, path, { body, as });
    bodies.push(JSON.stringify(res.body));
    return res;
  };

  test('a live plugin: PATCH applies at once, the secret is sealed and never returned or logged', async () => {
    const events: string[] = [];
    const lines: string[] = [];
    const { host, live } = await boot(configOf(), events, lines);
    try {
      const before = await call(host, 'GET', '/plugins/settings-live/settings');
      assert.is(before.status, 200);
      assert.equal(before.body.data.values, { greeting: 'hello', limit: 3 });
      assert.equal(before.body.data.secrets, { api_key: { set: false } });
      assert.equal((before.body.data.schema as { properties: object }).properties, schema.properties);
      assert.is(before.body.data.live, true);

      const saved = await call(host, 'PATCH', '/plugins/settings-live/settings', { greeting: 'hi', api_key: SECRET });
      assert.is(saved.status, 200, JSON.stringify(saved.body));
      assert.is(saved.body.data.restart_required, false);
      assert.equal(saved.body.data.values, { greeting: 'hi', limit: 3 });
      assert.equal(saved.body.data.secrets, { api_key: { set: true } });
      // The plugin heard it, with the secret opened, and its config object holds it.
      assert.equal(live.seen, [{ greeting: 'hi', limit: 3, api_key: SECRET }]);
      assert.equal({ ...live.config() }, { greeting: 'hi', limit: 3, api_key: SECRET });

      const doc = await host.host.store.collection('plugin_settings').findOne({ _id: 'settings-live' });
      assert.equal(doc?.values, { greeting: 'hi' });
      const sealed = String((doc?.secrets as Record<string, string> | undefined)?.api_key);
      assert.ok(sealed.startsWith('fhv1:') && !JSON.stringify(doc).includes(SECRET), 'sealed at rest');
      // Only the host opens it: the plugin's own vault does not.
      const ownVault = await host.host.services.get(services.vault, 'settings-live');
      assert.throws(() => ownVault.decrypt(sealed, 'plugin-settings:settings-live:api_key'));

      // '' keeps the secret; null clears it.
      const kept = await call(host, 'PATCH', '/plugins/settings-live/settings', { api_key: '', limit: 5 });
      assert.equal(kept.body.data.secrets, { api_key: { set: true } });
      assert.is(live.seen.at(-1)?.api_key, SECRET);
      assert.is(live.seen.at(-1)?.limit, 5);
      await call(host, 'PATCH', '/plugins/settings-live/settings', { api_key: SECOND_SECRET });
      assert.is(live.config()?.api_key, SECOND_SECRET);
      const cleared = await call(host, 'PATCH', '/plugins/settings-live/settings', { api_key: null });
      assert.equal(cleared.body.data.secrets, { api_key: { set: false } });
      assert.is(live.config()?.api_key, undefined);
    } finally {
      await host.stop();
    }
    for (const text of [...bodies, ...lines]) {
      assert.not.ok(text.includes(SECRET) || text.includes(SECOND_SECRET), `a secret leaked: ${text.slice(0, 200)}`);
    }
  });

  test('a plugin without the hook: restart_required until the next start, which applies the value', async () => {
    const events: string[] = [];
    const config = configOf();
    const first = await boot(config, events, []);
    try {
      const saved = await call(first.host, 'PATCH', '/plugins/settings-later/settings', { limit: 7, api_key: SECRET });
      assert.is(saved.status, 200);
      assert.is(saved.body.data.restart_required, true);
      assert.match(String(saved.body.message), 'restarts');
      assert.equal(saved.body.data.values, { greeting: 'from the file', limit: 7 }, 'stored over the file, key by key');
      assert.equal(saved.body.data.stored, ['api_key', 'limit']);
      assert.equal({ ...first.later.config() }, { greeting: 'from the file', limit: 2 }, 'the running plugin keeps its values');
      const pending = await call(first.host, 'GET', '/plugins/settings-later/settings');
      assert.is(pending.body.data.restart_required, true);
      const listed = await first.host.request<{ data: Array<{ plugin: string; restart_required: boolean }>; restart_required: boolean }>(
        'GET',
        '/plugins/settings',
      );
      assert.is(listed.body.restart_required, true);
      assert.equal(
        listed.body.data.filter((p) => p.plugin.startsWith('settings-')).map((p) => [p.plugin, p.restart_required]),
        [
          ['settings-live', false],
          ['settings-later', true],
        ],
      );
      // null goes back to the file's value; saving what runs already needs no restart.
      const reset = await call(first.host, 'PATCH', '/plugins/settings-later/settings', { limit: null, api_key: null });
      assert.equal(reset.body.data.values, { greeting: 'from the file', limit: 2 });
      assert.equal(reset.body.data.stored, []);
      assert.is(reset.body.data.restart_required, false);
      await call(first.host, 'PATCH', '/plugins/settings-later/settings', { limit: 7, api_key: SECRET });
    } finally {
      await first.host.stop();
    }
    // Restarted on the same store (the data directory's admin is issued already: no test client).
    const later = probe('settings-later', events, { live: false });
    const second = await createHost({
      plugins: [later.plugin],
      coreApi: false,
      env: {},
      listen: false,
      logger: silentLogger,
      config: { ...config, port: 0, pluginSettings: { 'settings-later': { greeting: 'from the file', limit: 2 } } },
    });
    try {
      assert.equal({ ...later.config() }, { greeting: 'from the file', limit: 7, api_key: SECRET }, 'applied at the start');
    } finally {
      await second.stop();
    }
  });

  test('saved settings the schema no longer accepts are set aside at start, loudly, and can be fixed through the API', async () => {
    const config = configOf();
    const first = await boot(config, [], []);
    // As a newer version with a stricter schema would find them.
    await first.host.host.store
      .collection('plugin_settings')
      .updateOne({ _id: 'settings-later' }, { $set: { values: { limit: 50 }, secrets: {} } }, { upsert: true });
    await first.host.stop();
    const lines: string[] = [];
    const later = probe('settings-later', [], { live: false });
    const second = await createHost({
      plugins: [later.plugin],
      coreApi: false,
      env: {},
      listen: false,
      logger: captureLogger(lines),
      config: { ...config, port: 0, pluginSettings: { 'settings-later': { greeting: 'from the file', limit: 2 } } },
    });
    try {
      assert.equal({ ...later.config() }, { greeting: 'from the file', limit: 2 }, 'started with the file settings');
      assert.ok(
        lines.some(
          (l) => l.includes("Plugin 'settings-later': its settings saved at run time no longer pass") && l.includes('limit must be <= 10'),
        ),
      );
    } finally {
      await second.stop();
    }
  });

  test('an invalid value is a 400 naming the field, and nothing is saved; unknown plugin 404; editors refused', async () => {
    const { host } = await boot(configOf(), [], []);
    try {
      const bad = await call(host, 'PATCH', '/plugins/settings-live/settings', { limit: 99, greeting: 'ok' });
      assert.is(bad.status, 400);
      assert.is(bad.body.code, 'rest_invalid_param');
      assert.equal(Object.keys((bad.body.data as { params: object }).params), ['limit']);
      assert.match(String(bad.body.message), 'limit must be <= 10');
      const extra = await call(host, 'PATCH', '/plugins/settings-live/settings', { colour: 'red' });
      assert.is(extra.status, 400);
      assert.match(String(extra.body.message), 'colour is not an allowed property');
      const secretType = await call(host, 'PATCH', '/plugins/settings-live/settings', { api_key: 42 });
      assert.is(secretType.status, 400);
      assert.ok((secretType.body.data as { params: Record<string, string> }).params.api_key);
      assert.is(await host.host.store.collection('plugin_settings').count(), 0, 'nothing saved');
      const missing = await call(host, 'GET', '/plugins/no-such-plugin/settings');
      assert.is(missing.status, 404);
      assert.is(missing.body.code, 'plugin_not_found');
      const noSchema = await call(host, 'PATCH', '/plugins/core-content/settings', { a: 1 });
      assert.is(noSchema.status, 400);
      assert.is(noSchema.body.code, 'plugin_has_no_settings');
      const editor = await host.createUser('ed', 'editor');
      const refused = await call(host, 'GET', '/plugins/settings-live/settings', undefined, editor);
      assert.is(refused.status, 403);
    } finally {
      await host.stop();
    }
  });

  test('dispose runs once on stop, in reverse load order; a throwing dispose is logged, not thrown', async () => {
    const events: string[] = [];
    const lines: string[] = [];
    const { host } = await boot(configOf(), events, lines);
    await host.stop();
    await host.stop();
    assert.equal(
      events.filter((e) => e.startsWith('dispose:')),
      ['dispose:settings-later', 'dispose:settings-live'],
    );
    assert.ok(lines.some((l) => l.includes("Plugin 'settings-live': dispose failed")));
  });

  test.run();
}
