import { defineAuthProvider, defineHandler, definePlugin, services } from '../../sdk/index.js';
import { fetchPosts, type ForumFetchSettings } from './fetch-posts.js';

interface Settings {
  api_url: string;
  auth_url: string;
}

/** New posts of a forum community (Reddit shape), OAuth 2.0 in the browser. */
export default definePlugin({
  id: 'forum',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The forum fetch handler: new posts of a community, paginated, one item per post.',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      api_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://oauth.reddit.com' },
      auth_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://www.reddit.com' },
    },
  },
  deps: { handlers: services.handlers, authProviders: services.authProviders, settings: services.configOf<Settings>() },
  setup({ handlers, authProviders, settings }) {
    const api = () => settings.api_url.replace(/\/+$/, '');
    const auth = () => settings.auth_url.replace(/\/+$/, '');
    authProviders.add(
      defineAuthProvider({
        key: 'forum',
        type: 'oauth2',
        label: 'Forum',
        fields: ['client_id', 'client_secret'],
        // The service wants HTTP Basic at its token endpoint and `duration=permanent` for a refresh token.
        oauth2: () => ({
          issuer: auth(),
          authorizationUrl: `${auth()}/api/v1/authorize`,
          tokenUrl: `${auth()}/api/v1/access_token`,
          scopes: ['identity', 'read'],
          clientAuth: 'basic',
          extraParams: { duration: 'permanent' },
        }),
        async account(token, fetch) {
          const me = (
            await fetch(`${api()}/api/v1/me`, {
              headers: { Authorization: `Bearer ${token}`, 'User-Agent': 'Flowhost/1.0 (content workflows)' },
            })
          ).json<{ name?: string; id?: string }>();
          return { username: me.name ?? '', id: me.id ?? '' };
        },
      }),
    );
    handlers.add(
      defineHandler<ForumFetchSettings>({
        slug: 'forum',
        type: 'fetch',
        label: 'Forum community',
        description: 'New posts of a community, newest first; each post is processed once per flow step.',
        auth: { type: 'oauth2', fields: ['client_id', 'client_secret'] },
        settings: {
          type: 'object',
          required: ['community'],
          additionalProperties: false,
          properties: {
            community: { type: 'string', pattern: '^[A-Za-z0-9_]{2,21}$', title: 'Community', description: 'Name without r/' },
            pages: { type: 'integer', minimum: 1, maximum: 4, default: 1, title: 'Pages', description: 'Pages of 25 posts to read' },
            max_items: { type: 'integer', minimum: 1, maximum: 50, default: 1, title: 'Items per run' },
          },
        },
        fetch: (ctx, handlerSettings) => fetchPosts(ctx, api(), handlerSettings),
      }),
    );
  },
});
