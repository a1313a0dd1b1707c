import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { container } from 'tsyringe';
import { HookCatalogue } from '../../../core/kernel/hooks.js';
import { loadPlugins } from '../../../core/kernel/loader.js';
import { Registries } from '../../../core/kernel/registries.js';
import type { PluginDefinition, PluginHost } from '../../../core/kernel/plugin.js';
import { PluginError } from '../../../core/errors.js';
import { definePlugin, defineHandler } from '../../../sdk/define.js';

function load(plugins: Array<PluginDefinition<never>>, settings: Record<string, unknown> = {}) {
  const hooks = new HookCatalogue();
  const registries = new Registries(hooks);
  const seen: Array<{ id: string; settings: unknown }> = [];
  const promise = loadPlugins(plugins, {
    kernelVersion: '1.2.0',
    hooks,
    settings,
    makeHost(plugin, s) {
      seen.push({ id: plugin.id, settings: s });
      return { id: plugin.id, hooks, settings: s, registries, container: container.createChildContainer() } as unknown as PluginHost<Record<string, unknown>>;
    },
  });
  return { hooks, registries, seen, promise };
}

function plugin(id: string, extra: Partial<PluginDefinition> = {}): PluginDefinition<never> {
  return definePlugin({ id, version: '1.0.0', flowhost: '^1.0.0', setup: () => undefined, ...extra }) as PluginDefinition<never>;
}

async function refusal(promise: Promise<unknown>): Promise<PluginError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, PluginError);
    return error as PluginError;
  }
  throw new assert.Assertion({ message: 'expected the loader to refuse', generated: false, operator: 'throws', expects: 'error', actual: 'none' });
}

const test = suite('kernel: plugin loader');

test('orders plugins by dependsOn, keeping the given order otherwise', async () => {
  const order: string[] = [];
  const mk = (id: string, dependsOn?: string[]) => plugin(id, { dependsOn, setup: () => void order.push(id) });
  await load([mk('c', ['b']), mk('a'), mk('b', ['a']), mk('d')]).promise;
  assert.equal(order, ['a', 'b', 'c', 'd']);
});

test('refuses a duplicate id, naming the plugin', async () => {
  const error = await refusal(load([plugin('twin'), plugin('twin')]).promise);
  assert.is(error.pluginId, 'twin');
  assert.match(error.message, /Plugin 'twin'.*duplicate/);
});

test('refuses an unmet dependency, naming both', async () => {
  const error = await refusal(load([plugin('needy', { dependsOn: ['ghost'] })]).promise);
  assert.is(error.pluginId, 'needy');
  assert.match(error.message, /depends on plugin 'ghost'/);
});

test('refuses a cycle and shows it', async () => {
  const error = await refusal(load([plugin('a', { dependsOn: ['b'] }), plugin('b', { dependsOn: ['c'] }), plugin('c', { dependsOn: ['a'] })]).promise);
  assert.match(error.message, /cyclic dependency: a -> b -> c -> a/);
});

test('refuses an incompatible flowhost range', async () => {
  const error = await refusal(load([plugin('future', { flowhost: '^2.0.0' })]).promise);
  assert.is(error.pluginId, 'future');
  assert.match(error.message, /requires Flowhost \^2\.0\.0, but this is Flowhost 1\.2\.0/);
});

test('refuses malformed definitions', async () => {
  assert.match((await refusal(load([plugin('Bad Id')]).promise)).message, /invalid id/);
  assert.match((await refusal(load([plugin('v', { version: 'one' })]).promise)).message, /invalid version/);
  assert.match((await refusal(load([plugin('r', { flowhost: 'not a range!' })]).promise)).message, /invalid 'flowhost' range/);
  assert.match((await refusal(load([{ ...plugin('s'), setup: undefined } as unknown as PluginDefinition<never>]).promise)).message, /no setup/);
});

test('validates settings against the schema, applying defaults', async () => {
  const schema = { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' }, max: { type: 'integer', default: 5 } } };
  const error = await refusal(load([plugin('cfg', { settingsSchema: schema })], { cfg: { url: 'not a url' } }).promise);
  assert.is(error.pluginId, 'cfg');
  assert.match(error.message, /invalid settings: url must match format "uri"/);
  const missing = await refusal(load([plugin('cfg', { settingsSchema: schema })], {}).promise);
  assert.match(missing.message, /url is required/);
  const ok = load([plugin('cfg', { settingsSchema: schema })], { cfg: { url: 'https://example.org/feed' } });
  await ok.promise;
  assert.equal(ok.seen[0]!.settings, { url: 'https://example.org/feed', max: 5 });
});

test('a setup that throws stops loading and is named', async () => {
  const error = await refusal(load([plugin('boom', { setup: () => { throw new Error('kaput'); } }), plugin('after')]).promise);
  assert.is(error.pluginId, 'boom');
  assert.match(error.message, /Plugin 'boom': setup failed: kaput/);
  const asyncError = await refusal(load([plugin('later', { setup: async () => { throw new Error('async kaput'); } })]).promise);
  assert.match(asyncError.message, /setup failed: async kaput/);
});

test('taps are named after the plugin and recorded per plugin', async () => {
  const names: string[] = [];
  const { hooks, promise } = load([
    plugin('alpha', { setup: (host: PluginHost) => { host.hooks.booted.tapPromise('whatever', async () => undefined); host.hooks.handlers.tap('x', (l) => l); } }),
  ]);
  const loaded = await promise;
  hooks.booted.intercept({ call: () => undefined, register: (tap) => { names.push(tap.name); return tap; } });
  assert.equal(loaded[0]!.hooks, ['booted', 'handlers']);
  assert.equal(hooks.tapsOf('alpha'), ['booted', 'handlers']);
  assert.is((hooks.booted as unknown as { taps: Array<{ name: string }> }).taps[0]!.name, 'alpha');
});

test('registries resolve every filter; a duplicate slug names both plugins', async () => {
  const handler = (slug: string) => defineHandler({ slug, type: 'fetch', label: slug, description: slug });
  const good = load([
    plugin('one', { setup: (h: PluginHost) => void h.hooks.handlers.tap('one', (l) => [...l, handler('rss')]) }),
    plugin('two', { setup: (h: PluginHost) => void h.hooks.handlers.tap('two', (l) => [...l, handler('files')]) }),
  ]);
  await good.promise;
  good.registries.resolveAll();
  assert.equal(good.registries.handlers().map((h) => h.slug), ['rss', 'files']);
  assert.is(good.registries.ownerOf(good.registries.handlers()[1]!), 'two');

  const clash = load([
    plugin('one', { setup: (h: PluginHost) => void h.hooks.handlers.tap('one', (l) => [...l, handler('rss')]) }),
    plugin('two', { setup: (h: PluginHost) => void h.hooks.handlers.tap('two', (l) => [...l, handler('rss')]) }),
  ]);
  await clash.promise;
  assert.throws(() => clash.registries.resolveAll(), /Duplicate handlers 'rss': contributed by plugin 'one' and plugin 'two'/);
});

test('tap options order plugins (stage, before)', async () => {
  const { registries, promise } = load([
    plugin('late', { setup: (h: PluginHost) => void h.hooks.intervals.tap({ name: 'late', stage: 10 }, (l) => [...l, { value: 'late', label: 'L', seconds: 60 }]) }),
    plugin('early', { setup: (h: PluginHost) => void h.hooks.intervals.tap('early', (l) => [...l, { value: 'early', label: 'E', seconds: 60 }]) }),
  ]);
  await promise;
  registries.resolveAll();
  assert.equal(registries.intervals().map((i) => i.value), ['early', 'late']);
});

test('reading a registry before boot is a clear error', () => {
  const registries = new Registries(new HookCatalogue());
  assert.throws(() => registries.handlers(), /read before the host booted/);
});

test.run();
