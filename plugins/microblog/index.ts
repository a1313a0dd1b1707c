import { defineAuthProvider, defineHandler, definePlugin, services } from '../../sdk/index.js';
import { publishPosts, TEXT_LIMIT } from './publish.js';
import { weightedLength } from './text-weight.js';

interface Settings {
  api_url: string;
}

/** Posts to a microblog (X API v2 shape), authorized with OAuth 1.0a in the browser. */
export default definePlugin({
  id: 'microblog',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The microblog publish handler (POST /2/tweets, OAuth 1.0a user context, 280 weighted characters).',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { api_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://api.x.com' } },
  },
  deps: { handlers: services.handlers, authProviders: services.authProviders, settings: services.configOf<Settings>() },
  setup({ handlers, authProviders, settings }) {
    const base = () => settings.api_url.replace(/\/+$/, '');
    authProviders.add(
      defineAuthProvider({
        key: 'microblog',
        type: 'oauth1',
        label: 'Microblog',
        fields: ['api_key', 'api_secret'],
        oauth1: () => ({
          requestTokenUrl: `${base()}/oauth/request_token`,
          authorizeUrl: `${base()}/oauth/authorize`,
          accessTokenUrl: `${base()}/oauth/access_token`,
        }),
        accountFrom: (tokens) => ({ username: tokens.screen_name ?? '', id: tokens.user_id ?? '' }),
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'microblog',
        type: 'publish',
        label: 'Microblog post',
        description: `Posts each item (text shortened to ${TEXT_LIMIT} characters as the service counts them; links count 23).`,
        auth: { type: 'oauth1', fields: ['api_key', 'api_secret'], aliases: { consumer_key: 'api_key', consumer_secret: 'api_secret' } },
        textLimit: TEXT_LIMIT,
        // The host fits the text as the service counts it (a URL 23, an emoji 2).
        countText: weightedLength,
        settings: { type: 'object', additionalProperties: false, properties: {} },
        publish: (ctx, _handlerSettings, packets) => publishPosts(ctx, { apiUrl: base() }, packets),
      }),
    );
  },
});
