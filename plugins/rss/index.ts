import { defineHandler, definePlugin, services } from '../../sdk/index.js';
import { fetchFeed, type RssSettings } from './feed.js';

export default definePlugin({
  id: 'rss',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The rss fetch handler: RSS 2.0, RSS 1.0 and Atom feeds.',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler<RssSettings>({
        slug: 'rss',
        type: 'fetch',
        label: 'RSS / Atom feed',
        description: 'Items from an RSS or Atom feed, newest first; each item is processed once per flow step.',
        settings: {
          type: 'object',
          required: ['feed_url'],
          additionalProperties: false,
          properties: {
            feed_url: {
              type: 'string',
              format: 'uri',
              pattern: '^https?://',
              title: 'Feed URL',
              description: 'Address of the RSS or Atom feed',
            },
            max_items: {
              type: 'integer',
              minimum: 1,
              maximum: 50,
              default: 1,
              title: 'Items per run',
              description: 'New items taken per run',
            },
          },
        },
        fetch: (ctx, settings) => fetchFeed(ctx.fetch, settings),
      }),
    );
  },
});
