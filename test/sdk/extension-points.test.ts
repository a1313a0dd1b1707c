// A third party's extension point, as a plugin author writes it with the public SDK: one
// plugin declares and reads it, another contributes through `deps`. Loaded by the kernel's
// loader with the host's registrars and lists, without a host around them.
import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { container } from 'tsyringe';
import {
  createExtensionPoint,
  definePlugin,
  PluginError,
  services,
  type ExtensionPointContributions,
  type PluginDefinition,
} from '../../sdk/index.js';
import { chatTools } from '../../sdk/chat/index.js';
import { analyticsTools } from '../../sdk/analytics/index.js';
import { HookCatalogue } from '../../core/kernel/hooks.js';
import { loadPlugins } from '../../core/kernel/loader.js';
import { HostRegistries } from '../../core/kernel/registries.js';
import { ServiceContainer } from '../../core/kernel/service-container.js';
import { registrarFactories } from '../../core/kernel/contribution-kinds.js';
import { checkContributions } from '../../host/services/check-contributions.js';

interface WeatherSource {
  id: string;
  label: string;
  forecast(city: string): string;
}

const weatherSources = createExtensionPoint<WeatherSource>({
  id: 'weather.sources',
  owner: 'weather',
  key: 'id',
  check(source) {
    if (typeof source.forecast !== 'function') throw new Error('has no forecast() function');
  },
});

/** The owner: declares the point, reads it once every setup has run (here: when asked). */
function weatherPlugin(seen: { read?: () => string[]; early?: string }): PluginDefinition {
  return definePlugin({
    id: 'weather',
    version: '1.0.0',
    flowhost: '^1.0.0',
    extensionPoints: [weatherSources],
    deps: { sources: weatherSources.contributions },
    setup({ sources }: { sources: ExtensionPointContributions<WeatherSource> }) {
      try {
        sources.list();
      } catch (error) {
        seen.early = (error as Error).message;
      }
      seen.read = () => sources.entries().map(({ owner, item }) => `${owner}:${item.id}=${item.forecast('Oslo')}`);
    },
  }) as PluginDefinition;
}

function sourcePlugin(id: string, sourceId: string, extra: Partial<WeatherSource> = {}): PluginDefinition {
  return definePlugin({
    id,
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { sources: weatherSources },
    setup({ sources }) {
      sources.add({ id: sourceId, label: sourceId, forecast: (city) => `${sourceId} says sun in ${city}`, ...extra });
    },
  }) as PluginDefinition;
}

async function load(plugins: PluginDefinition[]) {
  const hooks = new HookCatalogue();
  const registries = new HostRegistries();
  const box = new ServiceContainer(container.createChildContainer());
  for (const factory of registrarFactories(registries)) box.provide(factory, 'host');
  const loaded = await loadPlugins(plugins, {
    kernelVersion: '1.0.0',
    hooks,
    services: box,
    registries,
    settings: {},
    onSettings: () => undefined,
    onCollections: () => undefined,
  });
  registries.seal();
  return { loaded, registries };
}

async function refusal(promise: Promise<unknown>): Promise<PluginError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, PluginError);
    return error as PluginError;
  }
  throw new assert.Assertion({
    message: 'expected a refusal',
    generated: false,
    operator: 'throws',
    expects: 'PluginError',
    actual: 'none',
  });
}

const test = suite('sdk: extension points owned by plugins');

test('a contributor adds through deps; the owner reads {owner, item} in order, after every setup', async () => {
  const seen: { read?: () => string[]; early?: string } = {};
  // The owner loads between its contributors: no ordering is needed.
  const { loaded, registries } = await load([sourcePlugin('met', 'met-no'), weatherPlugin(seen), sourcePlugin('acme-weather', 'acme')]);
  assert.match(seen.early ?? '', /'weather\.sources' is read before the host booted/);
  assert.equal(seen.read!(), ['met:met-no=met-no says sun in Oslo', 'acme-weather:acme=acme says sun in Oslo']);
  assert.is(registries.extensionPoint(weatherSources).ownerOf('acme'), 'acme-weather');
  const byId = Object.fromEntries(loaded.map((p) => [p.id, p]));
  assert.equal(byId.weather!.extensionPoints, ['weather.sources']);
  assert.equal(byId.met!.contributions, { 'weather.sources': ['met-no'] });
  assert.equal(byId.met!.hooks, [], 'a contribution is not a hook');
});

test('a contributor whose point owner is not loaded stops start-up naming both', async () => {
  const error = await refusal(load([sourcePlugin('met', 'met-no')]).then(() => undefined));
  assert.is(error.pluginId, 'met');
  assert.match(
    error.message,
    /Plugin 'met': contributes to extension point 'weather\.sources' \(as 'sources'\), owned by plugin 'weather', which is not loaded: load plugin 'weather' too/,
  );
});

test('an optional contributor loads without the owner (its adds are dropped) and counts with it', async () => {
  const optional = (id: string) =>
    definePlugin({
      id,
      version: '1.0.0',
      flowhost: '^1.0.0',
      deps: { sources: weatherSources.optional },
      setup({ sources }) {
        sources.add({ id, label: id, forecast: () => 'fog' });
      },
    }) as PluginDefinition;
  const alone = await load([optional('maybe'), optional('perhaps')]);
  assert.equal(
    alone.loaded.map((p) => [p.id, p.contributions]),
    [
      ['maybe', {}],
      ['perhaps', {}],
    ],
  );
  const seen: { read?: () => string[] } = {};
  const withOwner = await load([optional('maybe'), weatherPlugin(seen)]);
  assert.equal(seen.read!(), ['maybe:maybe=fog']);
  assert.equal(withOwner.loaded[0]!.contributions, { 'weather.sources': ['maybe'] });
});

test('a duplicate key names both contributors; the owner check names the plugin and the item', async () => {
  const dup = await refusal(load([weatherPlugin({}), sourcePlugin('met', 'same'), sourcePlugin('acme', 'same')]));
  assert.match(dup.message, /Plugin 'acme': duplicate weather\.sources 'same': contributed by plugin 'met' and plugin 'acme'/);
  const bad = await refusal(load([weatherPlugin({}), sourcePlugin('broken', 'nofc', { forecast: 'sunny' as never })]));
  assert.match(bad.message, /Plugin 'broken': weather\.sources 'nofc': has no forecast\(\) function/);
});

test('only the owner declares a point, and only the owner reads it', async () => {
  const squatter = definePlugin({
    id: 'squatter',
    version: '1.0.0',
    flowhost: '^1.0.0',
    extensionPoints: [weatherSources],
    setup: () => undefined,
  }) as PluginDefinition;
  assert.match(
    (await refusal(load([squatter]))).message,
    /Plugin 'squatter': declares extension point 'weather\.sources', which belongs to plugin 'weather'/,
  );
  const reader = definePlugin({
    id: 'nosy',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { sources: weatherSources.contributions },
    setup: () => undefined,
  }) as PluginDefinition;
  assert.match(
    (await refusal(load([weatherPlugin({}), reader]))).message,
    /Plugin 'nosy': reads the contributions to extension point 'weather\.sources', which only its owner, plugin 'weather', reads/,
  );
});

test("chat tools and analytics tools are the chat and analytics plugins' points, not kernel kinds", async () => {
  assert.is(chatTools.owner, 'chat');
  assert.is(analyticsTools.owner, 'analytics');
  assert.not.ok('chatTools' in services, 'services has no chat-tools registrar');
  assert.not.ok('analyticsTools' in services);
  const tool = definePlugin({
    id: 'helper',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { chatTools },
    setup({ chatTools }) {
      chatTools.add({ name: 'helper', description: 'x', parameters: { type: 'object' }, run: async () => null });
    },
  }) as PluginDefinition;
  const error = await refusal(load([tool]));
  assert.match(
    error.message,
    /Plugin 'helper': contributes to extension point 'chat\.tools' \(as 'chatTools'\), owned by plugin 'chat', which is not loaded/,
  );
});

test('a schema an item brings is checked at boot, naming the contributor and the item', async () => {
  const chatOwner = definePlugin({
    id: 'chat',
    version: '1.0.0',
    flowhost: '^1.0.0',
    extensionPoints: [chatTools],
    setup: () => undefined,
  }) as PluginDefinition;
  const tool = definePlugin({
    id: 'sloppy',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { chatTools },
    setup({ chatTools }) {
      chatTools.add({ name: 'sloppy', description: 'x', parameters: { type: 'objekt' }, run: async () => null });
    },
  }) as PluginDefinition;
  const { registries } = await load([chatOwner, tool]);
  assert.throws(
    () => checkContributions(registries, { compile: false }),
    /Plugin 'sloppy': chat\.tools 'sloppy': the schema does not compile/,
  );
});

test.run();
