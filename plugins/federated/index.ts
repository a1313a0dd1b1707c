import { defineHandler, definePlugin, services } from '../../sdk/index.js';
import { publishFederated, TEXT_LIMIT } from './post.js';

interface Settings {
  service_url: string;
}

/** Posts to an AT Protocol server (Bluesky shape) with an app password. */
export default definePlugin({
  id: 'federated',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: `The federated publish handler: AT Protocol, app password, ${TEXT_LIMIT} graphemes, links as facets.`,
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { service_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://bsky.social' } },
  },
  deps: { handlers: services.handlers, settings: services.configOf<Settings>() },
  setup({ handlers, settings }) {
    handlers.add(
      defineHandler({
        slug: 'federated',
        type: 'publish',
        label: 'Federated post',
        description: `Posts each item (${TEXT_LIMIT} characters as graphemes, shortened at a word; links become facets).`,
        auth: { type: 'app_password', fields: ['handle', 'password'], aliases: { username: 'handle', app_password: 'password' } },
        textLimit: TEXT_LIMIT,
        settings: { type: 'object', additionalProperties: false, properties: {} },
        publish: (ctx, _s, packets) => publishFederated(ctx, settings.service_url.replace(/\/+$/, ''), packets),
      }),
    );
  },
});
