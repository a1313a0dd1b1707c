// A third-party plugin imports only the public SDK, by package name.
import { badRequest, defineHandler, definePlugin, defineSurface, reply } from 'flowhost';
import { greet } from './greeting.js';

interface HelloSettings {
  greeting: string;
}

export default definePlugin<HelloSettings>({
  id: 'hello',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Says hello: a fetch handler and GET/POST hello/v1/greeting.',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { greeting: { type: 'string', minLength: 1, maxLength: 40, default: 'Hello' } },
  },
  setup(host) {
    const said: string[] = [];

    host.hooks.handlers.tap('hello', (handlers) => [
      ...handlers,
      defineHandler({
        slug: 'hello',
        type: 'fetch',
        label: 'Hello',
        description: 'One greeting item per run.',
        settings: {
          type: 'object',
          additionalProperties: false,
          properties: { name: { type: 'string', title: 'Name', default: 'world' } },
        },
        async fetch(ctx, settings) {
          const text = greet(host.settings.greeting, String(settings.name ?? 'world'));
          return [{ type: 'hello', data: { title: text, content: text }, metadata: { at: ctx.clock.now().toISOString() } }];
        },
      }),
    ]);

    host.hooks.surfaces.tap('hello', (surfaces) => [
      ...surfaces,
      defineSurface({
        id: 'hello',
        namespace: 'hello/v1',
        routes: [
          {
            method: 'GET',
            path: '/greeting',
            permission: 'authenticated',
            schema: { query: { type: 'object', properties: { name: { type: 'string', maxLength: 60 } } } },
            handle(request) {
              const { name } = request.query as { name?: string };
              return { success: true, data: { message: greet(host.settings.greeting, name ?? request.user?.login ?? 'world') } };
            },
          },
          {
            method: 'POST',
            path: '/greeting',
            permission: { capability: 'manage_options' },
            schema: {
              body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1, maxLength: 60 } } },
            },
            handle(request) {
              const { name } = request.body as { name: string };
              if (name.toLowerCase() === 'nobody') throw badRequest('hello_nobody', 'Nobody cannot be greeted');
              const message = greet(host.settings.greeting, name);
              said.push(message);
              return reply(201, { success: true, data: { message, count: said.length } });
            },
          },
        ],
      }),
    ]);
  },
});
