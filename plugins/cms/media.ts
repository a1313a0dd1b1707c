/** The `cms-media` fetch handler: the site's media library items (attachments) as packets, newest first. */
import type { ContentStore, DataPacket, JsonSchema, Post } from '../../sdk/index.js';

export interface MediaFetchSettings {
  /** `image/` (a prefix ending in '/'), `image/png` (exact), or '' for every type. */
  mime_type: string;
  /** Candidates per run (the engine then keeps the unprocessed ones). */
  max_candidates: number;
}

export const mediaFetchSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mime_type: {
      type: 'string',
      maxLength: 200,
      pattern: '^([a-z0-9.+-]+/([a-z0-9.+-]*))?$',
      default: '',
      title: 'MIME type',
      description: "A type ('image/png') or a family ending in '/' ('image/'); empty for all",
    },
    max_candidates: { type: 'integer', minimum: 1, maximum: 100, default: 20, title: 'Candidates per run' },
    // Enforced by the engine when it claims items, as for cms-local.
    max_items: { type: 'integer', minimum: 1, maximum: 100, default: 1, title: 'Items per run' },
  },
};

export function readMediaFetchSettings(raw: Partial<MediaFetchSettings>): MediaFetchSettings {
  return { mime_type: raw.mime_type ?? '', max_candidates: raw.max_candidates ?? 20 };
}

export function mediaPacket(post: Post, siteUrl: string): DataPacket {
  const meta = post.meta as Record<string, unknown>;
  const filename = String(meta.filename ?? 'file');
  const mime = String(meta.mime_type ?? 'application/octet-stream');
  return {
    type: 'media',
    data: {
      media_id: post.post_id,
      title: post.title,
      alt_text: String(meta.alt_text ?? ''),
      caption: post.excerpt,
      description: post.content,
      mime_type: mime,
      filename,
      filesize: Number(meta.filesize ?? 0),
      source_url: `${siteUrl}/flowhost-media/${post.post_id}/${encodeURIComponent(filename)}`,
      ...(typeof meta.width === 'number' ? { width: meta.width, height: meta.height } : {}),
    },
    metadata: {
      item_id: `media:${post.post_id}`,
      media_id: post.post_id,
      source_url: `${siteUrl}/flowhost-media/${post.post_id}/${encodeURIComponent(filename)}`,
    },
  };
}

export async function fetchMedia(content: ContentStore, settings: MediaFetchSettings, siteUrl: string): Promise<DataPacket[]> {
  const filter = settings.mime_type.toLowerCase();
  const meta: Record<string, string> = {};
  if (filter.endsWith('/')) meta.media_kind = filter.slice(0, -1);
  else if (filter) meta.mime_type = filter;
  const { items } = await content.findPosts({
    post_type: 'attachment',
    status: 'publish',
    ...(Object.keys(meta).length ? { meta } : {}),
    orderby: 'created_at',
    order: 'desc',
    per_page: settings.max_candidates,
  });
  return items.map((post) => mediaPacket(post, siteUrl));
}
