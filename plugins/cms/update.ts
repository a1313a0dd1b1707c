/** The `cms-update` handler: writes a packet's content (and title) back to the post it names. */
import { htmlToPlainText, type ContentStore, type DataPacket, type Logger, type PostPatch } from '../../sdk/index.js';
import { packetPostId, stringField } from './packet-fields.js';
import type { UpdateSettings } from './settings.js';

/**
 * Packets that name no post are not for this handler and are passed over (logged). A
 * named post that no longer exists fails the step: the operator should see that.
 */
export async function updatePosts(
  content: ContentStore,
  settings: UpdateSettings,
  packets: DataPacket[],
  log?: Logger,
): Promise<DataPacket[]> {
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const postId = packetPostId(packet);
    if (postId === null) {
      log?.warn({ item_id: packet.metadata?.item_id }, 'cms-update: item names no post_id; skipped');
      continue;
    }
    const post = await content.getPost(postId);
    if (!post) throw new Error(`cms-update: post ${postId} does not exist`);

    const patch: PostPatch = {};
    const text = stringField(packet.data, 'content');
    if (text) patch.content = settings.mode === 'append' && post.content ? `${post.content}\n\n${text}` : text;
    const title = settings.update_title ? htmlToPlainText(stringField(packet.data, 'title')) : '';
    if (title && title !== post.title) patch.title = title;

    const changed = Object.keys(patch).length > 0;
    const updated = changed ? await content.updatePost(postId, patch) : post;
    out.push({
      type: 'cms_post',
      data: { post_id: postId, title: updated.title, updated: changed },
      metadata: { ...packet.metadata, post_id: postId },
    });
  }
  return out;
}
