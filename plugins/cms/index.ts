import { defineHandler, definePlugin, services } from '../../sdk/index.js';
import { fetchLocalPosts } from './local.js';
import { fetchMedia, mediaFetchSchema, readMediaFetchSettings, type MediaFetchSettings } from './media.js';
import { publishPosts } from './publish.js';
import {
  localSchema,
  publishSchema,
  readLocalSettings,
  readPublishSettings,
  readUpdateSettings,
  updateSchema,
  type LocalSettings,
  type PublishSettings,
  type UpdateSettings,
} from './settings.js';
import { updatePosts } from './update.js';
import { fetchRemotePosts, readRemoteApiSettings, remoteApiSchema, type RemoteApiSettings } from './remote-api.js';

/** This site's own posts: publish to, read from and update them (the core content store). */
export default definePlugin({
  id: 'cms',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description:
    "Handlers cms (publish), cms-local (fetch), cms-update (update) and cms-media (fetch) on the site's posts and media, and cms-api (fetch) from another site's WordPress REST API.",
  deps: { handlers: services.handlers, info: services.hostInfo },
  setup({ handlers, info }) {
    handlers.add(
      defineHandler<Partial<PublishSettings>>({
        slug: 'cms',
        type: 'publish',
        label: 'Site post',
        description: 'Creates a post on this site for each item.',
        settings: publishSchema,
        publish: (ctx, settings, packets) => publishPosts(ctx.content, readPublishSettings(settings), packets, ctx.clock.now()),
      }),
    );
    handlers.add(
      defineHandler<Partial<LocalSettings>>({
        slug: 'cms-local',
        type: 'fetch',
        label: 'Site posts',
        description: "This site's posts, newest first; each post is processed once per flow step.",
        settings: localSchema,
        fetch: (ctx, settings) => fetchLocalPosts(ctx.content, readLocalSettings(settings)),
      }),
    );
    handlers.add(
      defineHandler<Partial<UpdateSettings>>({
        slug: 'cms-update',
        type: 'update',
        label: 'Update site post',
        description: "Writes the item's content back to the site post it came from.",
        settings: updateSchema,
        update: (ctx, settings, packets) => updatePosts(ctx.content, readUpdateSettings(settings), packets, ctx.log),
      }),
    );
    handlers.add(
      defineHandler<Partial<RemoteApiSettings>>({
        slug: 'cms-api',
        type: 'fetch',
        label: 'Posts of another site',
        description: "Posts from another site's WordPress REST API (a WordPress site, or another Flowhost), newest first.",
        settings: remoteApiSchema,
        fetch: (ctx, settings) => fetchRemotePosts(ctx, readRemoteApiSettings(settings)),
      }),
    );
    handlers.add(
      defineHandler<Partial<MediaFetchSettings>>({
        slug: 'cms-media',
        type: 'fetch',
        label: 'Site media',
        description:
          "This site's media library items, newest first (title, alt text, caption, MIME type, file URL); each once per flow step.",
        settings: mediaFetchSchema,
        fetch: (ctx, settings) => fetchMedia(ctx.content, readMediaFetchSettings(settings), info.publicUrl()),
      }),
    );
  },
});
