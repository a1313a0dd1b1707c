import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { container } from 'tsyringe';
import { HookCatalogue } from '../../../core/kernel/hooks.js';
import { loadPlugins } from '../../../core/kernel/loader.js';
import { HostRegistries } from '../../../core/kernel/registries.js';
import type { PluginDefinition } from '../../../core/kernel/plugin.js';
import { PluginError } from '../../../core/errors.js';
import { ServiceContainer } from '../../../core/kernel/service-container.js';
import { registrarFactories } from '../../../core/kernel/contribution-kinds.js';
import { createServiceFactory, createServiceRef, optionalService } from '../../../core/kernel/service-ref.js';
import { services } from '../../../core/kernel/services.js';
import { definePlugin } from '../../../sdk/define.js';
import type { ProviderDefinition } from '../../../sdk/kernel/contributions.js';

function load(plugins: Array<PluginDefinition>, settings: Record<string, unknown> = {}) {
  const hooks = new HookCatalogue();
  const registries = new HostRegistries();
  const tsyringe = container.createChildContainer();
  const box = new ServiceContainer(tsyringe);
  box.provide(createServiceFactory({ service: services.hooks, factory: () => hooks }) as never, 'host');
  box.provide(
    createServiceFactory({ service: services.config, factory: (_d, { pluginId }) => seenSettings.get(pluginId) ?? {} }) as never,
    'host',
  );
  for (const factory of registrarFactories(registries)) box.provide(factory, 'host');
  const seenSettings = new Map<string, Record<string, unknown>>();
  const seen: Array<{ id: string; settings: unknown }> = [];
  const promise = loadPlugins(plugins, {
    kernelVersion: '1.2.0',
    hooks,
    services: box,
    settings,
    onSettings(id, s) {
      seenSettings.set(id, s);
      seen.push({ id, settings: s });
    },
    onCollections: () => undefined,
    registries,
  });
  return { hooks, registries, seen, promise, tsyringe, box };
}

// Providers: a kind the kernel still fixes (handlers moved to the workflows domain's point).
const provider = (slug: string) => ({ slug, label: slug }) as unknown as ProviderDefinition;
const withDeps = <D extends Record<string, ReturnType<typeof createServiceRef>>>(deps: D, setup: (d: never) => void) =>
  ({ deps, setup }) as unknown as Partial<PluginDefinition>;

function plugin(id: string, extra: Partial<PluginDefinition> = {}): PluginDefinition {
  return definePlugin({ id, version: '1.0.0', flowhost: '^1.0.0', setup: () => undefined, ...extra }) as PluginDefinition;
}

async function refusal(promise: Promise<unknown>): Promise<PluginError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, PluginError);
    return error as PluginError;
  }
  throw new assert.Assertion({
    message: 'expected the loader to refuse',
    generated: false,
    operator: 'throws',
    expects: 'error',
    actual: 'none',
  });
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

test('dependsOn takes a version range after the id (scoped ids too); a plain id still works', async () => {
  const order: string[] = [];
  const mk = (id: string, version: string, dependsOn?: string[]) => plugin(id, { version, dependsOn, setup: () => void order.push(id) });
  const loaded = await load([mk('c', '1.0.0', ['@acme/base@^1.2', 'b']), mk('b', '2.0.0'), mk('@acme/base', '1.4.0')]).promise;
  assert.equal(order, ['@acme/base', 'b', 'c']);
  assert.equal(loaded.find((p) => p.id === 'c')!.dependsOn, ['@acme/base', 'b'], 'listed by id');
  const old = await refusal(load([mk('c', '1.0.0', ['b@>=3']), mk('b', '2.0.0')]).promise);
  assert.is(old.pluginId, 'c');
  assert.match(old.message, /depends on plugin 'b' >=3, but version 2\.0\.0 is loaded/);
  const bad = await refusal(load([mk('c', '1.0.0', ['b@not a range'])]).promise);
  assert.match(bad.message, /dependsOn entry 'b@not a range' is not a plugin id with an optional version range/);
});

test('refuses a cycle and shows it', async () => {
  const error = await refusal(
    load([plugin('a', { dependsOn: ['b'] }), plugin('b', { dependsOn: ['c'] }), plugin('c', { dependsOn: ['a'] })]).promise,
  );
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
  assert.match((await refusal(load([{ ...plugin('s'), setup: undefined } as unknown as PluginDefinition]).promise)).message, /no setup/);
});

test('validates settings against the schema, applying defaults', async () => {
  const schema = {
    type: 'object',
    required: ['url'],
    properties: { url: { type: 'string', format: 'uri' }, max: { type: 'integer', default: 5 } },
  };
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
  const error = await refusal(
    load([
      plugin('boom', {
        setup: () => {
          throw new Error('kaput');
        },
      }),
      plugin('after'),
    ]).promise,
  );
  assert.is(error.pluginId, 'boom');
  assert.match(error.message, /Plugin 'boom': setup failed: kaput/);
  const asyncError = await refusal(
    load([
      plugin('later', {
        setup: async () => {
          throw new Error('async kaput');
        },
      }),
    ]).promise,
  );
  assert.match(asyncError.message, /setup failed: async kaput/);
});

test('taps are named after the plugin and recorded per plugin, apart from contributions', async () => {
  const { hooks, promise } = load([
    plugin(
      'alpha',
      withDeps(
        { hooks: services.hooks, providers: services.providers },
        (d: { hooks: HookCatalogue; providers: { add(h: unknown): void } }) => {
          d.hooks.booted.tapPromise('whatever', async () => undefined);
          d.providers.add(provider('a'));
        },
      ),
    ),
  ]);
  const loaded = await promise;
  assert.equal(loaded[0]!.hooks, ['booted']);
  assert.equal(loaded[0]!.contributions, { providers: ['a'] });
  assert.equal(loaded[0]!.deps, ['hooks', 'providers']);
  assert.equal(hooks.tapsOf('alpha'), ['booted']);
  assert.is((hooks.booted as unknown as { taps: Array<{ name: string }> }).taps[0]!.name, 'alpha');
});

test('registries collect every registrar add; the owner is the plugin; a duplicate slug stops loading naming both', async () => {
  const adds = (slug: string) =>
    withDeps({ providers: services.providers }, (d: { providers: { add(h: unknown): void } }) => d.providers.add(provider(slug)));
  const good = load([plugin('one', adds('rss')), plugin('two', adds('files'))]);
  await good.promise;
  good.registries.seal();
  assert.equal(
    good.registries.providers().map((p) => p.slug),
    ['rss', 'files'],
  );
  assert.is(good.registries.ownerOf(good.registries.providers()[1]!), 'two');
  assert.is(good.registries.registry('providers').ownerOf('rss'), 'one');

  const ran: string[] = [];
  const clash = await refusal(
    load([plugin('one', adds('rss')), plugin('two', adds('rss')), plugin('three', { setup: () => void ran.push('three') })]).promise,
  );
  assert.is(clash.pluginId, 'two');
  assert.match(clash.message, /Plugin 'two': duplicate providers 'rss': contributed by plugin 'one' and plugin 'two'/);
  assert.equal(ran, [], 'refused at add time: no later setup runs');
});

test('a dependency nobody provides stops loading before any setup, naming the plugin and the service', async () => {
  const ran: string[] = [];
  const weather = createServiceRef<{ today(): string }>({ id: 'acme.weather' });
  const error = await refusal(
    load([
      plugin('first', { setup: () => void ran.push('first') }),
      plugin(
        'needy',
        withDeps({ weather }, () => undefined),
      ),
    ]).promise,
  );
  assert.is(error.pluginId, 'needy');
  assert.match(error.message, /Plugin 'needy': needs service 'acme\.weather' \(as 'weather'\), which no loaded plugin provides/);
  assert.equal(ran, []);
});

test('an optional service: the provider’s instance when it is loaded, the stand-in when it is not', async () => {
  const weather = createServiceRef<{ today(): string }>({ id: 'acme.weather' });
  const optional = optionalService(weather, () => ({ today: () => 'unknown' }));
  const seen: string[] = [];
  const reader = plugin(
    'reader',
    withDeps({ weather: optional }, (d: { weather: { today(): string } }) => void seen.push(d.weather.today())),
  );
  const provider = plugin('provider', {
    provides: [createServiceFactory({ service: weather, factory: () => ({ today: () => 'sunny' }) })],
  });
  await load([reader]).promise;
  await load([provider, reader]).promise;
  assert.equal(seen, ['unknown', 'sunny']);
  assert.throws(() => optionalService(createServiceRef({ id: 'acme.scoped', scope: 'plugin' }) as never, () => 1), /root service/);
});

test('a plugin provides a root service another uses, built once through the container', async () => {
  const weather = createServiceRef<{ today(): string }>({ id: 'acme.weather' });
  let built = 0;
  let calls = 0;
  const provider = plugin('weather', {
    provides: [createServiceFactory({ service: weather, factory: () => (built++, { today: () => `sunny ${++calls}` }) })] as never,
  });
  const got: string[] = [];
  const user = (id: string) =>
    plugin(
      id,
      withDeps({ weather }, (d: { weather: { today(): string } }) => void got.push(d.weather.today())),
    );
  const { promise, tsyringe } = load([user('a'), provider, user('b')]);
  await promise;
  assert.equal(got, ['sunny 1', 'sunny 2']);
  assert.is(built, 1, 'one instance for both users');
  assert.ok(tsyringe.isRegistered(weather.token), 'resolved through tsyringe');
  const twice = await refusal(
    load([
      provider,
      plugin('weather-too', { provides: [createServiceFactory({ service: weather, factory: () => ({ today: () => '' }) })] as never }),
    ]).promise,
  );
  assert.match(twice.message, /Plugin 'weather-too': provides service 'acme\.weather', which plugin 'weather' already provides/);
});

test('cyclic services are refused with the chain; one id names one service', async () => {
  const a = createServiceRef<number>({ id: 'cycle.a' });
  const b = createServiceRef<number>({ id: 'cycle.b' });
  const provider = plugin('cyclic', {
    provides: [
      createServiceFactory({ service: a, deps: { b }, factory: ({ b: value }) => value + 1 }),
      createServiceFactory({ service: b, deps: { a }, factory: ({ a: value }) => value + 1 }),
    ] as never,
  });
  const error = await refusal(
    load([
      provider,
      plugin(
        'user',
        withDeps({ a }, () => undefined),
      ),
    ]).promise,
  );
  assert.match(error.message, /cyclic service dependency: plugin 'user' -> 'cycle\.a' -> 'cycle\.b' -> 'cycle\.a'/);
  // By id, not by object: a plugin whose own copy of flowhost made its references still
  // names the host's services (test/sdk/second-copy); two providers of one id are refused.
  assert.is(createServiceRef({ id: 'same' }).token, createServiceRef({ id: 'same' }).token);
  assert.is.not(createServiceRef({ id: 'same' }).token, createServiceRef({ id: 'other' }).token);
});

test('plugin-scoped services are built per plugin: each gets its own settings', async () => {
  const got: Record<string, unknown> = {};
  const reader = (id: string) =>
    plugin(id, {
      settingsSchema: { type: 'object', properties: { n: { type: 'integer', default: 1 } } },
      ...withDeps({ config: services.config }, (d: { config: unknown }) => void (got[id] = d.config)),
    });
  await load([reader('x'), reader('y')], { y: { n: 7 } }).promise;
  assert.equal(got, { x: { n: 1 }, y: { n: 7 } });
});

test('reading a registry before boot is a clear error', () => {
  const registries = new HostRegistries();
  assert.throws(() => registries.providers(), /read before the host booted/);
});

test.run();
