import { defineHandler, definePlugin, services, type JsonSchema } from '../../sdk/index.js';
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
import { postTargets, requirePublishTarget, type PostTarget } from './targets.js';
import { fetchRemotePosts, readRemoteApiSettings, remoteApiSchema, type RemoteApiSettings } from './remote-api.js';

/** This site's own posts: publish to, read from and update them (the core content store). */
export default definePlugin({
  id: 'cms',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description:
    "Handlers cms (publish), cms-local (fetch), cms-update (update) and cms-media (fetch) on the site's posts and media, and cms-api (fetch) from another site's WordPress REST API.",
  deps: { handlers: services.handlers, info: services.hostInfo, contentTypes: services.contentTypes },
  setup({ handlers, info, contentTypes }) {
    // The registered post types and taxonomies are known once the host has booted (every
    // plugin registers its own in setup), which is before anything reads a schema: the
    // schemas are built on first read and then kept, so validators compiled for them stay.
    let targets: PostTarget[] | undefined;
    const registered = () => (targets ??= postTargets(contentTypes));
    let publishSettings: JsonSchema | undefined;
    let localSettings: JsonSchema | undefined;
    const link = (postId: number) => `${info.publicUrl()}/?p=${postId}`;
    handlers.add(
      defineHandler<Partial<PublishSettings>>({
        slug: 'cms',
        type: 'publish',
        label: 'Site post',
        description: 'Creates a post on this site for each item.',
        get settings() {
          return (publishSettings ??= publishSchema(registered()));
        },
        publish: (ctx, raw, packets) => {
          const settings = readPublishSettings(raw);
          requirePublishTarget(registered(), settings);
          return publishPosts(ctx.content, settings, packets, ctx.clock.now(), link);
        },
      }),
    );
    handlers.add(
      defineHandler<Partial<LocalSettings>>({
        slug: 'cms-local',
        type: 'fetch',
        label: 'Site posts',
        description: "This site's posts, newest first; each post is processed once per flow step.",
        get settings() {
          return (localSettings ??= localSchema(registered()));
        },
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
