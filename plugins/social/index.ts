import { defineAuthProvider, defineHandler, definePlugin, fitText, packetText, services, type DataPacket } from '../../sdk/index.js';
import { accessToken, graphAccount, graphPost } from './graph-api.js';

interface Settings {
  graph_url: string;
  dialog_url: string;
  threads_url: string;
}

export const THREADED_LIMIT = 500;

/**
 * Page posts (Graph-API shape) and threaded posts (Threads shape: a container, then
 * publish), one OAuth 2.0 provider `social` for both: `threaded` uses `social`'s credentials.
 */
export default definePlugin({
  id: 'social',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The social (page feed post) and threaded (container + publish, 500 characters) publish handlers, OAuth 2.0.',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      graph_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://graph.facebook.com/v21.0' },
      dialog_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://www.facebook.com/v21.0' },
      threads_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://graph.threads.net/v1.0' },
    },
  },
  deps: { handlers: services.handlers, authProviders: services.authProviders, settings: services.configOf<Settings>() },
  setup({ handlers, authProviders, settings }) {
    const trim = (url: string) => url.replace(/\/+$/, '');
    const graph = () => trim(settings.graph_url);
    const auth = { type: 'oauth2' as const, fields: ['app_id', 'app_secret'], provider: 'social' };
    authProviders.add(
      defineAuthProvider({
        key: 'social',
        type: 'oauth2',
        label: 'Social',
        fields: ['app_id', 'app_secret'],
        // The service supports no PKCE for web apps; the state, bound to the admin, is the CSRF guard.
        oauth2: () => ({
          issuer: graph(),
          authorizationUrl: `${trim(settings.dialog_url)}/dialog/oauth`,
          tokenUrl: `${graph()}/oauth/access_token`,
          scopes: ['pages_manage_posts', 'threads_content_publish'],
          pkce: false,
        }),
        account: (token, fetch) => graphAccount(graph(), token, fetch),
      }),
    );
    handlers.add(
      defineHandler<{ page_id: string }>({
        slug: 'social',
        type: 'publish',
        label: 'Social page post',
        description: 'Posts each item to a page feed (message and link).',
        auth,
        settings: {
          type: 'object',
          required: ['page_id'],
          additionalProperties: false,
          properties: { page_id: { type: 'string', pattern: '^[0-9A-Za-z_.-]{1,64}$', title: 'Page id' } },
        },
        async publish(ctx, handlerSettings, packets) {
          const token = accessToken(ctx, 'social');
          const out: DataPacket[] = [];
          for (const packet of packets) {
            const { body, link } = packetText(packet);
            const { id } = await graphPost(
              ctx,
              `${graph()}/${encodeURIComponent(handlerSettings.page_id)}/feed`,
              { message: body, ...(link ? { link } : {}), access_token: token },
              'The social service',
            );
            out.push({
              ...packet,
              metadata: { ...packet.metadata, published_id: id, published_url: `https://www.facebook.com/${id}`, shortened: false },
            });
          }
          return out;
        },
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'threaded',
        type: 'publish',
        label: 'Threaded post',
        description: `Posts each item as a text thread (${THREADED_LIMIT} characters, shortened at a word).`,
        auth,
        textLimit: THREADED_LIMIT,
        settings: { type: 'object', additionalProperties: false, properties: {} },
        async publish(ctx, _handlerSettings, packets) {
          const token = accessToken(ctx, 'threaded');
          const base = trim(settings.threads_url);
          const out: DataPacket[] = [];
          for (const packet of packets) {
            const { body, link } = packetText(packet);
            const { text, shortened } = fitText(body, link, THREADED_LIMIT);
            // Two steps, as the service wants: a media container, then its publication.
            const container = await graphPost(
              ctx,
              `${base}/me/threads`,
              { media_type: 'TEXT', text, access_token: token },
              'The threaded service',
            );
            const { id } = await graphPost(
              ctx,
              `${base}/me/threads_publish`,
              { creation_id: container.id, access_token: token },
              'The threaded service',
            );
            out.push({
              ...packet,
              data: { ...packet.data, published_text: text },
              metadata: { ...packet.metadata, published_id: id, published_url: `https://www.threads.net/post/${id}`, shortened },
            });
          }
          return out;
        },
      }),
    );
  },
});
