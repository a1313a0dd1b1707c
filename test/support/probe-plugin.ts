// A test plugin with one route of each kind the host tests need.
import {
  definePlugin,
  defineSurface,
  defineHandler,
  defineProvider,
  ApiError,
  reply,
  type PluginDefinition,
  type RouteDefinition,
  services,
  successBody,
  errorBody,
} from '../../sdk/index.js';

/** Echoed input: any fields. */
const anything = { type: 'object', additionalProperties: true } as const;

export interface ProbeState {
  calls: Array<{ method: string; params: unknown; query: unknown; body: unknown }>;
}

export function probePlugin(state: ProbeState = { calls: [] }): PluginDefinition {
  return definePlugin({
    id: 'probe',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: {
      handlers: services.handlers,
      providers: services.providers,
      routes: services.routes,
      intervals: services.intervals,
      stepTypes: services.stepTypes,
      hooks: services.hooks,
      registries: services.registries,
    },
    setup(host) {
      const record = (request: { method: string; params: unknown; query: unknown; body: unknown }) => {
        state.calls.push({ method: request.method, params: request.params, query: request.query, body: request.body });
      };
      for (const item of [
        defineHandler({ slug: 'probe-feed', type: 'fetch', label: 'Probe feed', description: 'Fetches nothing.', fetch: async () => [] }),
        defineHandler({
          slug: 'probe-social',
          type: 'publish',
          label: 'Probe social',
          description: 'Publishes nowhere.',
          auth: { type: 'oauth2', fields: ['app_id', 'app_secret'] },
          textLimit: 500,
          publish: async (_ctx, _settings, packets) => packets,
        }),
        defineHandler({
          slug: 'probe-update',
          type: 'update',
          label: 'Probe update',
          description: 'Updates nothing.',
          class: 'Probe\\Update',
          update: async (_ctx, _settings, packets) => packets,
        }),
      ])
        host.handlers.add(item);
      for (const item of [
        defineProvider({ slug: 'probe-ai', label: 'Probe AI', configured: () => true, models: () => ['probe-small', 'probe-large'] }),
        defineProvider({ slug: 'probe-off', label: 'Probe Off', configured: async () => false, models: async () => [] }),
      ])
        host.providers.add(item);
      for (const item of [
        defineSurface({
          id: 'probe',
          namespace: 'probe/v1',
          routes: probeRoutes(record),
        }),
      ])
        host.routes.add(item);
    },
  }) as PluginDefinition;
}

type Recorded = { method: string; params: unknown; query: unknown; body: unknown };

/** The probe surface's routes: items (each method), echo, failures, a custom check, and one without a permission. */
function probeRoutes(record: (request: Recorded) => void): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/items/{id}',
      permission: { capability: 'manage_options' },
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
        query: {
          type: 'object',
          properties: {
            per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
        responses: {
          200: successBody({
            data: { type: 'object', required: ['id', 'query'], properties: { id: { type: 'integer' }, query: anything } },
          }),
        },
      },
      handle(request) {
        record(request);
        return { success: true, data: { id: (request.params as { id: number }).id, query: request.query } };
      },
    },
    {
      method: 'PUT',
      path: '/items/{id}',
      permission: { capability: 'manage_options' },
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } } },
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 0 } },
        },
        responses: { 200: successBody({ data: { type: 'object', required: ['updated'], properties: { updated: anything } } }) },
      },
      handle(request) {
        record(request);
        return { success: true, data: { updated: request.body } };
      },
    },
    {
      method: 'PATCH',
      path: '/items/{id}',
      permission: { capability: 'edit_posts' },
      schema: { responses: { 200: successBody({ patched: { const: true } }) } },
      handle(request) {
        record(request);
        return { patched: true };
      },
    },
    {
      method: 'DELETE',
      path: '/items/{id}',
      permission: { capability: 'manage_options' },
      schema: {
        query: { type: 'object', properties: { force: { type: 'boolean', default: false } } },
        responses: {
          200: successBody({
            data: {
              type: 'object',
              required: ['deleted', 'force'],
              properties: { deleted: { const: true }, force: { type: 'boolean' } },
            },
          }),
        },
      },
      handle(request) {
        record(request);
        return { success: true, data: { deleted: true, force: (request.query as { force: boolean }).force } };
      },
    },
    {
      method: 'POST',
      path: '/echo',
      permission: 'authenticated',
      schema: {
        responses: {
          201: successBody({
            data: { type: 'object', required: ['body', 'size'], properties: { body: anything, size: { type: 'integer' } } },
          }),
        },
      },
      handle(request) {
        record(request);
        return reply(201, { success: true, data: { body: request.body as Record<string, unknown>, size: request.rawBody.length } });
      },
    },
    {
      method: 'GET',
      path: '/boom',
      permission: 'public',
      schema: { responses: { 200: successBody({}) } },
      handle() {
        throw new Error('secret internals /etc/passwd at line 3');
      },
    },
    {
      method: 'GET',
      path: '/teapot',
      permission: 'public',
      schema: { responses: { 200: successBody({}), 418: errorBody('probe_teapot') } },
      handle() {
        throw new ApiError('probe_teapot', 'I am a teapot', 418, { hint: 'tea' });
      },
    },
    {
      method: 'GET',
      path: '/mine/{user_id}',
      permission: {
        check: (request) => request.user!.can('manage_options') || request.user!.userId === Number(request.params.user_id),
        description: 'admin or the user',
      },
      schema: {
        responses: {
          200: successBody({ data: { type: 'object', required: ['user_id'], properties: { user_id: { type: 'integer' } } } }),
        },
      },
      handle(request) {
        return { success: true, data: { user_id: Number(request.params.user_id) } };
      },
    },
    // No permission: must not be registered.
    { method: 'GET', path: '/unguarded', handle: () => ({ success: true }) } as never,
  ];
}
