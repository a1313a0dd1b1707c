import { Type } from '../../sdk/index.js';
import {
  actingUserOf,
  definePlugin,
  defineRoute,
  defineSurface,
  errorBody,
  services,
  successBody,
  type Clock,
  type GuardedFetch,
  type HandlerDefinition,
  type JsonSchema,
  type Registries,
  type HandlerCatalogue,
  type RouteDefinition,
  type CredentialsApi,
  apiError,
} from '../../sdk/index.js';

const providerMap: JsonSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['label', 'configured', 'models'],
    properties: {
      label: { type: 'string' },
      configured: { type: 'boolean' },
      models: { type: 'array', items: { type: 'string' } },
      models_source: { enum: ['service', 'built-in'] },
      models_note: { type: 'string' },
    },
    additionalProperties: false,
  },
};
interface ProviderView {
  label: string;
  configured: boolean;
  models: string[];
  models_source?: 'service' | 'built-in';
  models_note?: string;
}
const defaults: JsonSchema = {
  type: 'object',
  required: ['provider', 'model'],
  properties: { provider: { type: 'string' }, model: { type: 'string' } },
  additionalProperties: false,
};

/** What the providers routes read of the site settings. */
interface SiteDefaults {
  get(): Promise<{ default_provider: string; default_model: string }>;
}
import { handlerView, settingsView } from './handler-view.js';

const manage = { capability: 'manage_options' } as const;

const str = { type: 'string' } as const;
/** A handler as listed: the conditional fields appear only for handlers with credentials. */
const handlerFields: Record<string, JsonSchema> = {
  type: { enum: ['fetch', 'publish', 'update'] },
  class: str,
  label: str,
  description: str,
  requires_auth: { type: 'boolean' },
  auth_type: str,
  auth_fields: { type: 'array', items: str },
  callback_url: str,
  is_authenticated: { type: 'boolean' },
  account_details: { type: 'object', additionalProperties: true },
  text_limit: { type: 'integer', minimum: 1, description: 'the most characters a publish handler posts; longer text is shortened' },
};
const handlerRequired = ['type', 'class', 'label', 'description', 'requires_auth'];
const handler: JsonSchema = { type: 'object', required: handlerRequired, properties: handlerFields };
/** One settings field as the admin client shows it; `default` and `current_value` are any JSON value. */
const settingsField: JsonSchema = {
  type: 'object',
  required: ['type', 'label', 'description', 'default', 'options', 'current_value'],
  properties: { type: {}, label: str, description: str, default: {}, options: { type: 'array' }, current_value: {} },
};

/** What the handler route reads of the flows service: the handler defaults, masked. */
interface HandlerDefaultsSource {
  getHandlerDefaults(slug?: string): Promise<Record<string, Record<string, unknown>>>;
}

/** What the discovery routes read of the host. */
type DiscoveryHost = {
  registries: Registries;
  catalogue: HandlerCatalogue;
  clock: Clock;
  fetch: GuardedFetch;
  credentials: CredentialsApi;
  settings: SiteDefaults;
  flows: HandlerDefaultsSource;
};

/** A handler's connection as its view shows it, with the address that authorizes it. */
const connectionOf = async (host: DiscoveryHost, handler: HandlerDefinition<object>) => ({
  ...(await host.credentials.connection(handler)),
  callbackUrl: host.credentials.authorizationUrl(handler.slug),
});

function discoverySurface(host: DiscoveryHost) {
  return defineSurface({
    id: 'discovery',
    routes: [...handlerRoutes(host), stepTypesRoute(host), ...providerRoutes(host)],
  });
}

/**
 * The step types of this deployment: each one's label, the handler type its flow steps
 * pick (null: the step runs itself), and its own settings fields (the pipeline step's
 * config, checked at PUT /pipelines/steps/{id}/config), e.g. the approval step's.
 */
function stepTypesRoute(host: DiscoveryHost): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/step-types',
    permission: manage,
    summary: 'Step types of this deployment, keyed by type, with their own settings fields',
    schema: {
      responses: {
        200: successBody({
          data: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              required: ['label', 'handler_type', 'settings'],
              properties: {
                label: str,
                handler_type: { type: ['string', 'null'] },
                settings: { type: 'object', additionalProperties: settingsField },
              },
            },
          },
        }),
      },
    },
    async handle() {
      const data: Record<string, unknown> = {};
      for (const type of host.catalogue.stepTypes())
        data[type.type] = { label: type.label, handler_type: type.handlerType, settings: settingsView(type.settings) };
      return { success: true, data };
    },
  });
}

/** The handlers of this deployment, and one with its settings fields. */
function handlerRoutes(host: DiscoveryHost): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/handlers',
      permission: manage,
      summary: 'Handlers of this deployment, keyed by slug',
      schema: {
        query: Type.Object({ step_type: Type.Optional(Type.Enum(['fetch', 'publish', 'update'])) }),
        responses: { 200: successBody({ data: { type: 'object', additionalProperties: handler } }) },
      },
      async handle(request) {
        const { step_type } = request.query;
        const data: Record<string, unknown> = {};
        for (const handler of host.catalogue.handlers()) {
          if (step_type && handler.type !== step_type) continue;
          data[handler.slug] = handlerView(handler, host.catalogue.handlerOwner(handler.slug), await connectionOf(host, handler));
        }
        return { success: true, data };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/handlers/{slug}',
      permission: manage,
      summary: 'One handler with its settings fields',
      schema: {
        params: { type: 'object', required: ['slug'], properties: { slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' } } },
        responses: {
          200: successBody({
            data: {
              type: 'object',
              required: ['slug', ...handlerRequired, 'settings'],
              properties: { slug: str, ...handlerFields, settings: { type: 'object', additionalProperties: settingsField } },
            },
          }),
          404: errorBody('handler_not_found'),
        },
      },
      async handle(request) {
        const { slug } = request.params;
        const handler = host.catalogue.handler(slug);
        if (!handler) throw apiError('handler_not_found', { message: `No handler '${slug}' is registered`, status: 404 });
        return {
          success: true,
          data: {
            slug,
            ...handlerView(handler, host.catalogue.handlerOwner(slug), await connectionOf(host, handler)),
            settings: settingsView(handler.settings, (await host.flows.getHandlerDefaults(slug))[slug]),
          },
        };
      },
    }),
  ];
}

/** The AI providers with their models and defaults, and checking one's key. */
function providerRoutes(host: DiscoveryHost): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/providers',
      permission: manage,
      summary: 'AI providers keyed by slug, with the default provider and model',
      schema: {
        responses: {
          200: successBody({
            providers: providerMap,
            data: {
              type: 'object',
              required: ['providers', 'defaults'],
              properties: { providers: providerMap, defaults },
              additionalProperties: false,
            },
          }),
        },
      },
      async handle(request) {
        const ctx = { user: actingUserOf(request.user), log: request.log, clock: host.clock, fetch: host.fetch };
        // Each provider may ask its service for its models: all at once, in registry order.
        // Where a provider says so, where its list came from (the service's, or the built-in
        // one and why), beside the spec's three fields.
        const views = await Promise.all(
          host.registries.providers().map(async (provider): Promise<[string, ProviderView]> => {
            const configured = Boolean(await provider.configured(ctx));
            if (!provider.modelList)
              return [provider.slug, { label: provider.label, configured, models: [...(await provider.models(ctx))] }];
            const list = await provider.modelList(ctx);
            return [
              provider.slug,
              {
                label: provider.label,
                configured,
                models: [...list.models],
                models_source: list.source,
                ...(list.note ? { models_note: list.note } : {}),
              },
            ];
          }),
        );
        const providers: Record<string, ProviderView> = Object.fromEntries(views);
        // The site's default_provider/default_model when set; else the first configured provider and its first model.
        const site = await host.settings.get();
        const chosen =
          site.default_provider && providers[site.default_provider]
            ? ([site.default_provider, providers[site.default_provider]!] as const)
            : undefined;
        const first = chosen ?? Object.entries(providers).find(([, p]) => p.configured) ?? Object.entries(providers)[0];
        const model = chosen && site.default_model ? site.default_model : (first?.[1].models[0] ?? '');
        // The spec puts `providers` at the top level; the original admin client reads data.providers: serve both.
        return { success: true, providers, data: { providers, defaults: { provider: first?.[0] ?? '', model } } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/providers/{slug}/test',
      permission: manage,
      summary: "Checks an AI provider's key with a cheap call; a refused key is ok: false with the provider's own message",
      schema: {
        params: {
          type: 'object',
          required: ['slug'],
          properties: { slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 64 } },
        },
        responses: {
          200: successBody({
            message: { type: 'string' },
            data: {
              type: 'object',
              required: ['provider', 'ok', 'message'],
              properties: {
                provider: { type: 'string' },
                ok: { type: 'boolean' },
                code: { type: 'string' },
                message: { type: 'string' },
              },
              additionalProperties: false,
            },
          }),
          404: errorBody('provider_not_found'),
        },
      },
      async handle(request) {
        const { slug } = request.params;
        const provider = host.registries.providers().find((p) => p.slug === slug);
        if (!provider) throw apiError('provider_not_found', { message: `No AI provider '${slug}' is registered`, status: 404 });
        const ctx = { user: actingUserOf(request.user), log: request.log, clock: host.clock, fetch: host.fetch };
        const result = provider.test
          ? await provider.test(ctx)
          : (await provider.configured(ctx))
            ? ({ ok: true, message: `${provider.label} is configured (it offers no key test)` } as const)
            : ({ ok: false, code: 'not_configured', message: `${provider.label} is not configured` } as const);
        return { success: true, message: result.message, data: { provider: slug, ...result } };
      },
    }),
  ];
}

export default definePlugin({
  id: 'discovery',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'GET /handlers and GET /providers: what this deployment can do.',
  deps: {
    routes: services.routes,
    registries: services.registries,
    catalogue: services.handlerCatalogue,
    clock: services.clock,
    fetch: services.fetch,
    credentials: services.credentials,
    settings: services.settings,
    flows: services.flows,
  },
  setup({ routes, registries, catalogue, clock, fetch, credentials, settings, flows }) {
    routes.add(discoverySurface({ registries, catalogue, clock, fetch, credentials, settings, flows }));
  },
});
