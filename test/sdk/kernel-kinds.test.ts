// The kernel's contribution kinds are what the host itself consumes (issue 54). A kind one
// domain alone reads is that domain's extension point: the webhooks domain's presets and
// verification modes. A plugin contributes through the same `services.presets` and
// `services.verifiers` as before; the host then offers what it added, and GET /plugins
// names the point it went to and the domain that owns it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createServiceFactory,
  createServiceRef,
  definePlugin,
  defineHandler,
  defineInterval,
  definePostType,
  definePreset,
  defineTaxonomy,
  defineVerifier,
  services,
  successBody,
  type PluginDefinition,
} from '../../sdk/index.js';
import { createTestHost } from '../../sdk/testing/index.js';
import { webhookPresets, webhookVerifiers } from '../../sdk/contract/webhook-points.js';
import { authProviders } from '../../sdk/contract/credential-points.js';
import { postTypes, taxonomies } from '../../sdk/contract/content-types.js';
import { intervals } from '../../sdk/contract/schedule-intervals.js';
import { handlers as handlerPoint, stepTypes as stepTypePoint } from '../../sdk/contract/handler-catalogue.js';
import { kindNames } from '../../sdk/kernel/contribution-kinds.js';
import { testStores } from '../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads JSON answers

/** Kinds that left the kernel, with the point that holds them now and its owner. */
const MOVED = {
  presets: [webhookPresets, 'core-webhooks'],
  verifiers: [webhookVerifiers, 'core-webhooks'],
  authProviders: [authProviders, 'core-credentials'],
  postTypes: [postTypes, 'core-content'],
  taxonomies: [taxonomies, 'core-content'],
  intervals: [intervals, 'core-workflows'],
  handlers: [handlerPoint, 'core-workflows'],
  stepTypes: [stepTypePoint, 'core-workflows'],
} as const;

/** Where the auth provider sends the browser (never reached: the test reads the redirect). */
const AUTHORIZE = 'http://127.0.0.1:9/acme';

/** Adds a preset and a verification mode (accepts `X-Acme-Key: <the flow's secret>`). */
const acme: PluginDefinition = definePlugin({
  id: 'acme-hooks',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: {
    presets: services.presets,
    verifiers: services.verifiers,
    handlers: services.handlers,
    authProviders: services.authProviders,
    postTypes: services.postTypes,
    taxonomies: services.taxonomies,
    contentTypes: services.contentTypes,
    routes: services.routes,
    intervals: services.intervals,
    stepTypes: services.stepTypes,
  },
  setup({ presets, verifiers, handlers, authProviders, postTypes, taxonomies, contentTypes, routes, intervals, stepTypes }) {
    // A kind of step that runs itself: upper-cases each item's title.
    stepTypes.add({
      type: 'acme_upper',
      label: 'Upper-case titles',
      handlerType: null,
      run: async (_ctx, packets) => packets.map((p) => ({ ...p, data: { ...p.data, title: String(p.data.title ?? '').toUpperCase() } })),
    });
    intervals.add(defineInterval({ value: 'acme_minute', label: 'Every Acme minute', seconds: 60 }));
    postTypes.add(definePostType({ name: 'recipe', label: 'Recipes', rest_base: 'recipes', taxonomies: ['cuisine'] }));
    taxonomies.add(
      defineTaxonomy({ name: 'cuisine', label: 'Cuisines', rest_base: 'cuisines', hierarchical: false, post_types: ['recipe'] }),
    );
    // A reader of the content domain's lists (after boot, as every reader).
    routes.add({
      id: 'acme-types',
      namespace: 'acme/v1',
      routes: [
        {
          method: 'GET',
          path: '/types',
          permission: 'public',
          schema: { responses: { 200: successBody({ types: { type: 'array' }, taxonomies: { type: 'array' } }) } },
          handle: () => ({
            success: true,
            types: contentTypes.postTypes().map((t) => t.name),
            taxonomies: contentTypes.taxonomies().map((t) => t.name),
          }),
        },
      ],
    });
    handlers.add(
      defineHandler({
        slug: 'acme-feed',
        type: 'fetch',
        label: 'Acme feed',
        description: 'One item.',
        fetch: async () => [{ type: 'item', data: { title: 'soup' }, metadata: { item_identifier: 'soup-1' } }],
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'acme-oauth',
        type: 'publish',
        label: 'Acme',
        description: 'OAuth 2.0 through its own auth provider.',
        auth: { type: 'oauth2', fields: ['client_id', 'client_secret'] },
        publish: async (_ctx, _settings, packets) => packets,
      }),
    );
    authProviders.add({
      key: 'acme-oauth',
      type: 'oauth2',
      label: 'Acme',
      fields: ['client_id', 'client_secret'],
      oauth2: () => ({ issuer: AUTHORIZE, authorizationUrl: `${AUTHORIZE}/authorize`, tokenUrl: `${AUTHORIZE}/token`, scopes: ['post'] }),
    });
    presets.add(
      definePreset({
        slug: 'acme',
        label: 'Acme',
        template: {
          mode: 'hmac',
          algo: 'sha256',
          signed_template: '{body}',
          signature_source: { header: 'X-Acme-Signature', extract: { kind: 'raw' }, encoding: 'hex' },
        },
      }),
    );
    verifiers.add(
      defineVerifier({
        mode: 'acme-key',
        label: 'Acme key header',
        verify: ({ headers, secrets }) => secrets.includes(headers['x-acme-key'] ?? ''),
      }),
    );
  },
}) as PluginDefinition;

const unit = suite('sdk: kinds one domain reads are its extension points');

unit(
  'the kernel declares none of the moved kinds; services.presets, .verifiers, .authProviders, .postTypes, .taxonomies, .intervals are the owners’ points',
  () => {
    for (const [name, [point, owner]] of Object.entries(MOVED)) {
      assert.not.ok((kindNames as string[]).includes(name), `the kernel declares '${name}'`);
      assert.is(services[name as keyof typeof MOVED], point, `services.${name}`);
      assert.is(point.owner, owner, name);
    }
  },
);

unit("a root service of another plugin cannot read the owner's list", async () => {
  const snoop = definePlugin({
    id: 'snoop',
    version: '1.0.0',
    flowhost: '^1.0.0',
    provides: [
      createServiceFactory({
        service: createServiceRef<object, 'root'>({ id: 'snoop.presets', scope: 'root' }),
        deps: { presets: webhookPresets.contributions },
        factory: ({ presets }) => presets,
      }),
    ],
    deps: { snooped: createServiceRef<object, 'root'>({ id: 'snoop.presets', scope: 'root' }) },
    setup() {},
  });
  try {
    const t = await createTestHost({ plugins: [snoop] });
    await t.stop();
    assert.unreachable('another plugin read the webhooks domain’s presets');
  } catch (error) {
    assert.match((error as Error).message, "Plugin 'snoop': reads the contributions to extension point 'webhooks.presets'");
  }
});

unit('two content types on one wp/v2 path segment refuse start-up, naming the plugin that added the second', async () => {
  const clash = definePlugin({
    id: 'clash',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { postTypes: services.postTypes },
    setup({ postTypes }) {
      postTypes.add(definePostType({ name: 'article', label: 'Articles', rest_base: 'posts' }));
    },
  });
  try {
    const t = await createTestHost({ plugins: [clash] });
    await t.stop();
    assert.unreachable('the host started');
  } catch (error) {
    assert.match((error as Error).message, "Plugin 'clash': 'article' uses rest_base 'posts', already used by 'post'");
  }
});

unit('a handler without the function its type promises is refused when added, naming the plugin and the handler', async () => {
  const broken = definePlugin({
    id: 'broken-handler',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup({ handlers }) {
      handlers.add({ slug: 'half', type: 'fetch', label: 'Half', description: 'No fetch().' } as unknown as Parameters<
        typeof handlers.add
      >[0]);
    },
  });
  try {
    const t = await createTestHost({ plugins: [broken] });
    await t.stop();
    assert.unreachable('the host started');
  } catch (error) {
    assert.match((error as Error).message, "Plugin 'broken-handler': flows.handlers 'half': is a fetch handler without a fetch() function");
  }
});

unit.run();

for (const store of testStores('sdk: kinds one domain reads')) {
  const test = suite(`sdk: a plugin contributes to a domain's point, the domain serves it (${store.label})`);

  test('the preset is offered, the mode verifies deliveries, GET /plugins names the point and its owner', async () => {
    const t = await createTestHost({ plugins: [acme], config: store.config() });
    try {
      const presets = await t.request<Body>('GET', '/webhook-presets');
      assert.is(presets.status, 200);
      assert.ok(
        presets.body.data.some((p: Body) => p.slug === 'acme'),
        JSON.stringify(presets.body),
      );

      const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'P', steps: [{ step_type: 'fetch' }] } }))
        .body.data.pipeline_id;
      const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'F' } })).body.data.flow_id;
      const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'acme-key' } });
      assert.is(enabled.status, 200, JSON.stringify(enabled.body));
      const send = (key: string) =>
        fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Acme-Key': key },
          body: '{}',
        });
      assert.is((await send('wrong')).status, 401);
      assert.is((await send(enabled.body.data.secret.value)).status, 200);
      // The flows domain's interval: offered, and a flow schedules with it (an unknown one is refused).
      const offered = await t.request<Body>('GET', '/settings/scheduling-intervals');
      assert.ok(
        offered.body.data.some((i: Body) => i.value === 'acme_minute' && i.seconds === 60),
        JSON.stringify(offered.body),
      );
      const scheduled = await t.request<Body>('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'acme_minute' } } });
      assert.is(scheduled.status, 200, JSON.stringify(scheduled.body));
      assert.is((await t.request<Body>('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'nope' } } })).status, 400);
      await t.request<Body>('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'manual' } } });
      const unknown = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'nope' } });
      assert.is(unknown.status, 400);
      assert.match(unknown.body.message, 'bearer, hmac, acme-key');

      const plugins = (await t.request<Body>('GET', '/plugins')).body.data as Body[];
      const contributor = plugins.find((p) => p.id === 'acme-hooks')!;
      assert.equal(contributor.contributions, {
        'webhooks.presets': ['acme'],
        'webhooks.verifiers': ['acme-key'],
        'flows.handlers': ['acme-feed', 'acme-oauth'],
        'flows.stepTypes': ['acme_upper'],
        'credentials.authProviders': ['acme-oauth'],
        'content.postTypes': ['recipe'],
        'content.taxonomies': ['cuisine'],
        surfaces: ['acme-types'],
        'flows.intervals': ['acme_minute'],
      });
      assert.equal(plugins.find((p) => p.id === 'core-workflows')!.extensionPoints, [
        'flows.handlers',
        'flows.stepTypes',
        'flows.intervals',
      ]);
      assert.equal(plugins.find((p) => p.id === 'core-content')!.extensionPoints, ['content.postTypes', 'content.taxonomies']);
      assert.equal(plugins.find((p) => p.id === 'core-webhooks')!.extensionPoints, ['webhooks.presets', 'webhooks.verifiers']);
      assert.equal(plugins.find((p) => p.id === 'core-credentials')!.extensionPoints, ['credentials.authProviders']);
    } finally {
      await t.stop();
    }
  });

  test('a plugin’s post type and taxonomy get wp/v2 routes, and readers see them through services.contentTypes', async () => {
    const t = await createTestHost({ plugins: [acme], config: store.config() });
    try {
      const created = await t.request<Body>('POST', '/recipes', { namespace: 'wp/v2', body: { title: 'Soup', status: 'publish' } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      const listed = await t.request<Body[]>('GET', '/recipes', { namespace: 'wp/v2', as: 'anonymous' });
      assert.equal(
        listed.body.map((p) => p.title.rendered),
        ['Soup'],
      );
      assert.is((await t.request('GET', '/cuisines', { namespace: 'wp/v2', as: 'anonymous' })).status, 200);
      const types = await t.request<Body>('GET', '/types', { namespace: 'acme/v1', as: 'anonymous' });
      assert.is(types.status, 200, JSON.stringify(types.body));
      assert.ok(types.body.types.includes('recipe') && types.body.types.includes('post'), JSON.stringify(types.body));
      assert.ok(types.body.taxonomies.includes('cuisine'), JSON.stringify(types.body));
    } finally {
      await t.stop();
    }
  });

  test('the handler is listed and the step type runs: what the workflows domain serves from its points', async () => {
    const t = await createTestHost({ plugins: [acme], config: store.config() });
    try {
      const listed = await t.request<Body>('GET', '/handlers');
      assert.is(listed.body.data['acme-oauth']?.type, 'publish', JSON.stringify(Object.keys(listed.body.data)));
      const refused = await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'P', steps: [{ step_type: 'acme_nope' }] } });
      assert.is(refused.status, 400);
      assert.match(refused.body.message, 'acme_upper');
      const done = (await t.executeAndWait({
        workflow: {
          steps: [
            { type: 'fetch', handler_slug: 'acme-feed', handler_config: {} },
            { type: 'acme_upper', handler_config: {} },
          ],
        },
      })) as Body;
      assert.is(done.status, 'completed', JSON.stringify(done));
      const record = await t.request<Body>('GET', `/jobs/${done.job_id}`);
      assert.match(JSON.stringify(record.body), '"SOUP"');
    } finally {
      await t.stop();
    }
  });

  test('the auth provider is the one the browser authorization sends the popup to', async () => {
    const t = await createTestHost({ plugins: [acme], config: store.config() });
    try {
      const saved = await t.request<Body>('PUT', '/auth/acme-oauth', {
        body: { client_id: 'acme-client', client_secret: 'acme-secret-0123' },
      });
      assert.is(saved.status, 200, JSON.stringify(saved.body));
      const auth = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
      const res = await fetch(`${t.url}/flowhost-auth/acme-oauth/`, { redirect: 'manual', headers: { Authorization: auth } });
      assert.is(res.status, 302, await res.text());
      const location = new URL(res.headers.get('location')!);
      assert.is(`${location.origin}${location.pathname}`, `${AUTHORIZE}/authorize`);
      assert.is(location.searchParams.get('client_id'), 'acme-client');
    } finally {
      await t.stop();
    }
  });

  test.run();
}
