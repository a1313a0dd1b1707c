/** The `cms` publish handler: one site post per incoming packet. */
import { htmlToPlainText, type ContentStore, type DataPacket } from '../../sdk/index.js';
import { escapeHtml, stringField, webUrl } from './packet-fields.js';
import type { PublishSettings } from './settings.js';
import { termNames } from './targets.js';

const TITLE_FROM_CONTENT = 80;

/** The title: the packet's own, else the start of its text, else a dated placeholder. */
export function postTitle(packet: DataPacket, content: string, now: Date): string {
  const title = stringField(packet.data, 'title', 'name', 'subject');
  if (title) return htmlToPlainText(title);
  const text = htmlToPlainText(content);
  if (text) return text.length > TITLE_FROM_CONTENT ? `${text.slice(0, TITLE_FROM_CONTENT - 1).trimEnd()}…` : text;
  return `Untitled ${now.toISOString().slice(0, 10)}`;
}

export function postContent(packet: DataPacket, includeSource: boolean): string {
  const content = stringField(packet.data, 'content', 'description', 'summary', 'text', 'body');
  if (!includeSource) return content;
  const source = webUrl(stringField(packet.metadata, 'source_url') || stringField(packet.data, 'link', 'url'));
  if (!source) return content;
  const link = `<p>Source: <a href="${escapeHtml(source)}">${escapeHtml(source)}</a></p>`;
  return content ? `${content}\n\n${link}` : link;
}

export async function publishPosts(
  content: ContentStore,
  settings: PublishSettings,
  packets: DataPacket[],
  now: Date,
  /** The post's address as wp/v2 links it; a run lists it with what it published. */
  linkOf?: (postId: number) => string,
): Promise<DataPacket[]> {
  const termIds: number[] = [];
  for (const name of termNames(settings.terms)) termIds.push((await content.ensureTerm(settings.taxonomy, name)).term_id);

  const out: DataPacket[] = [];
  for (const packet of packets) {
    const body = postContent(packet, settings.include_source);
    const sourceUrl = webUrl(stringField(packet.metadata, 'source_url') || stringField(packet.data, 'link', 'url'));
    const sourceItemId = packet.metadata?.item_id ?? null;
    const post = await content.createPost({
      post_type: settings.post_type,
      status: settings.post_status,
      title: postTitle(packet, body, now),
      content: body,
      terms: termIds.length ? { [settings.taxonomy]: termIds } : {},
      // Where the post came from, so a site can trace (or skip) re-imports.
      meta: {
        ...(sourceUrl ? { source_url: sourceUrl } : {}),
        ...(typeof sourceItemId === 'string' || typeof sourceItemId === 'number' ? { source_item_id: String(sourceItemId) } : {}),
      },
    });
    out.push({
      type: 'cms_post',
      data: { post_id: post.post_id, title: post.title, slug: post.slug, status: post.status },
      // published_id/url: the run's outcome lists what was published, with links to it.
      metadata: {
        post_id: post.post_id,
        source_item_id: sourceItemId,
        published_id: String(post.post_id),
        ...(linkOf ? { published_url: linkOf(post.post_id) } : {}),
      },
    });
  }
  return out;
}
