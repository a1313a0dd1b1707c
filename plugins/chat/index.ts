/**
 * Chat: an assistant that builds and runs workflows through tool calls. Routes (routes.ts)
 * run a session (service.ts) through the tool loop (loop.ts) with the caller's rights;
 * sessions and their lease live in this plugin's store (repository.ts), X-Request-ID
 * answers too (idempotency.ts); caps.ts bounds what a session keeps. Tools: tools/.
 */
import { createServiceFactory, definePlugin, services } from '../../sdk/index.js';
import { chatToolbox, chatTools as chatToolsPoint } from '../../sdk/chat/index.js';
import { chatContext, contextDeps } from './context.js';
import { RequestIds } from './idempotency.js';
import { SessionsRepository } from './repository.js';
import { chatSurface } from './routes.js';
import { chatService } from './service.js';
import { chatTools } from './tools/index.js';
import { enabledTools } from './tools/enabled.js';
import { chatToolDeps } from './types.js';

export interface ChatSettings {
  /** Tools that delete or reset data the model may be offered (default none); each call still waits for the user's confirmation. */
  destructive_tools?: string[];
}

export default definePlugin({
  id: 'chat',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Chat: an AI assistant that builds and runs workflows with tool calls (POST /chat), with per-user sessions.',
  settingsSchema: {
    type: 'object',
    properties: {
      destructive_tools: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, default: [] },
    },
  },
  // Owns the chat-tools extension point (flowhost/chat): it adds its own tools like any
  // other plugin, and offers every contributed one to models.
  extensionPoints: [chatToolsPoint],
  // The same tools for another surface that serves them (the MCP server), read live after boot.
  provides: [
    createServiceFactory({
      service: chatToolbox,
      deps: { tools: chatToolsPoint.contributions },
      factory: ({ tools }) => ({ entries: () => tools.entries() }),
    }),
  ],
  deps: {
    routes: services.routes,
    tools: chatToolsPoint,
    contributedTools: chatToolsPoint.contributions,
    store: services.store,
    config: services.configOf<ChatSettings>(),
    registries: services.registries,
    clock: services.clock,
    fetch: services.fetch,
    ...contextDeps,
    ...chatToolDeps,
  },
  async setup({
    routes,
    tools,
    contributedTools,
    store,
    config,
    settings,
    registries,
    clock,
    fetch,
    pipelines,
    flows,
    execute,
    credentials,
    catalogue,
  }) {
    // The turn limit is the site setting (GET/PUT /settings `max_turns`): one number, which
    // the admin client edits. A config still naming the old plugin setting is refused, not
    // silently ignored.
    if ('max_turns' in config)
      throw new Error(
        'pluginSettings.chat.max_turns is no longer read: chat stops at the site setting max_turns (PUT /settings {"max_turns": N}, default 8); remove it from the config',
      );
    for (const tool of chatTools({ pipelines, flows, execute, settings, credentials, catalogue }, registries)) tools.add(tool);
    const repository = new SessionsRepository(store, clock);
    const requestIds = new RequestIds(store, clock);
    await Promise.all([repository.init(), requestIds.init()]);
    const { readyProvider, systemPrompt } = chatContext({ settings }, registries, { pipelines, flows });
    const destructiveEnabled = (name: string) => (config.destructive_tools ?? []).includes(name);
    const service = chatService({
      repository,
      clock,
      maxTurns: async () => (await settings.get()).max_turns,
      tools: (ctx) => enabledTools(contributedTools.list(), ctx, destructiveEnabled),
      readyProvider,
      systemPrompt,
      destructiveEnabled,
    });
    routes.add(chatSurface({ repository, requestIds, service, clock, fetch }));
  },
});
