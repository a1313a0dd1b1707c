// A fixture plugin that contributes handlers and nothing else, the shape most engine and
// trigger tests need: declared through the public SDK as a third-party plugin would.
import { definePlugin, services, type HandlerDefinition, type PluginDefinition } from '../../sdk/index.js';

export function handlerPlugin(id: string, handlers: HandlerDefinition[]): PluginDefinition {
  return definePlugin({
    id,
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup(host) {
      for (const handler of handlers) host.handlers.add(handler);
    },
  }) as PluginDefinition;
}
