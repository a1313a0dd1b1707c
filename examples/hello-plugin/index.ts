// A third-party plugin imports only the public SDK, by package name.
import {
  badRequest,
  defineCliNoun,
  defineHandler,
  definePlugin,
  defineRoute,
  defineSurface,
  errorBody,
  reply,
  services,
  successBody,
  // TypeBox's builders from the SDK (TypeBox's types, no TypeBox loaded at run time): JSON
  // Schema the host validates, typing request.query/body and the handler's settings, no casts.
  Type,
} from 'flowhost';
import { greet } from './greeting.js';

export interface HelloSettings {
  greeting: string;
}

interface Greeting extends Record<string, unknown> {
  message: string;
  at: Date;
}

export default definePlugin({
  id: 'hello',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Says hello: a fetch handler, GET/POST hello/v1/greeting, a tidy-up job and a greetings collection of its own.',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { greeting: { type: 'string', minLength: 1, maxLength: 40, default: 'Hello' } },
  },
  // `flowhost hello greet Ada` and `flowhost hello list`: through the API, on the running
  // host or on one the command starts for itself.
  cli: [
    defineCliNoun({
      noun: 'hello',
      describe: 'Greet someone and list the greetings',
      commands: [
        {
          command: 'greet <name>',
          describe: 'Greet someone (stored as a greeting)',
          async run(args, ctx) {
            const res = await ctx.call<{ data: { message: string; count: number } }>('POST', '/hello/v1/greeting', {
              body: { name: String(args.name) },
            });
            ctx.print(res.data, `${res.data.message} (${res.data.count} greeting${res.data.count === 1 ? '' : 's'} so far)`);
          },
        },
        {
          command: 'list',
          describe: 'The latest greetings',
          async run(_args, ctx) {
            const res = await ctx.call<{ data: Array<{ message: string; at: string }> }>('GET', '/hello/v1/greetings');
            ctx.print(res.data, res.data.map((g) => `${g.at}  ${g.message}`).join('\n') || 'No greetings yet.');
          },
        },
      ],
    }),
  ],
  // One-time work on the plugin's data, run once per store before setup (two hosts on one
  // database never both run a step). Add new steps at the end; never rename one.
  migrations: [
    {
      id: '2026-12-greetings-by-date',
      description: 'Index greetings by date (the list and the tidy-up job read them newest first)',
      async up({ store }) {
        await store.collection<Greeting>('greetings').createIndex({ fields: { at: -1 } });
      },
    },
  ],
  deps: {
    handlers: services.handlers,
    routes: services.routes,
    store: services.store,
    scheduler: services.scheduler,
    clock: services.clock,
    log: services.logger,
    settings: services.configOf<HelloSettings>(),
  },
  async setup({ handlers, routes, store, scheduler, clock, log, settings }) {
    // Namespaced to this plugin by the host ('hello__greetings'): no other plugin sees it.
    const greetings = store.collection<Greeting>('greetings');

    handlers.add(
      defineHandler({
        slug: 'hello',
        type: 'fetch',
        label: 'Hello',
        // One item per run: a fetch step passes on `max_items` items, 1 when the settings
        // schema declares none (docs/plugin-authoring.md, "Data packets").
        description: 'One greeting item per run.',
        settings: Type.Object({ name: Type.String({ title: 'Name', default: 'world' }) }, { additionalProperties: false }),
        async fetch(ctx, handlerSettings) {
          const text = greet(settings.greeting, handlerSettings.name);
          return [
            {
              type: 'hello',
              data: { title: text, content: text },
              metadata: { item_id: `${text}@${ctx.jobId}`, at: ctx.clock.now().toISOString() },
            },
          ];
        },
      }),
    );

    // A background job of its own: greetings older than a day are forgotten.
    scheduler.define('forget-old', async () => {
      const deleted = await greetings.deleteMany({ at: { $lt: new Date(clock.now().getTime() - 86_400_000) } });
      if (deleted) log.info({ deleted }, 'Old greetings forgotten');
    });
    await scheduler.every('1 hour', 'forget-old');

    routes.add(
      defineSurface({
        id: 'hello',
        namespace: 'hello/v1',
        routes: [
          defineRoute({
            method: 'GET',
            path: '/greeting',
            permission: 'authenticated',
            schema: {
              query: Type.Object({ name: Type.Optional(Type.String({ maxLength: 60 })) }),
              // Every answer's body, as sent: published in openapi.json, checked in tests.
              responses: {
                200: successBody({ data: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } }),
              },
            },
            handle(request) {
              return { success: true, data: { message: greet(settings.greeting, request.query.name ?? request.user?.login ?? 'world') } };
            },
          }),
          defineRoute({
            method: 'POST',
            path: '/greeting',
            permission: { capability: 'manage_options' },
            schema: {
              body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 60 }) }, { additionalProperties: false }),
              responses: {
                201: successBody({
                  data: {
                    type: 'object',
                    required: ['message', 'count'],
                    properties: { message: { type: 'string' }, count: { type: 'integer' } },
                  },
                }),
                // Only the route's own codes: the host adds its own (401, 403, invalid input...).
                400: errorBody('hello_nobody'),
              },
            },
            async handle(request) {
              const { name } = request.body;
              if (name.toLowerCase() === 'nobody') throw badRequest('hello_nobody', 'Nobody cannot be greeted');
              const message = greet(settings.greeting, name);
              await greetings.insertOne({ message, at: clock.now() });
              return reply(201, { success: true, data: { message, count: await greetings.count() } });
            },
          }),
          {
            method: 'GET',
            path: '/greetings',
            permission: { capability: 'manage_options' },
            schema: {
              responses: {
                200: successBody({
                  data: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['message', 'at'],
                      properties: { message: { type: 'string' }, at: { type: 'string' } },
                    },
                  },
                }),
              },
            },
            async handle() {
              const items = await greetings.find({}, { sort: { at: -1 }, limit: 20 });
              return { success: true, data: items.map((g) => ({ message: g.message, at: g.at.toISOString() })) };
            },
          },
        ],
      }),
    );
  },
});
