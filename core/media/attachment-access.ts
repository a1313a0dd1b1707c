/**
 * Who may see an attachment: WordPress's check_read_permission for `inherit` posts. An
 * attachment with a parent is readable exactly when its parent is (a draft's images are
 * its editors'); one without a parent, or whose parent is gone, is public. The single
 * attachment, the lists and the file bytes all ask here.
 */
import type { ContentStore, Post } from '../content/model.js';
import { canReadPost, readsEverything } from '../content/post-caps.js';
import type { Principal } from '../kernel/principal.js';

type User = Principal | null;

export class AttachmentAccess {
  constructor(private readonly content: ContentStore) {}

  /** Whether `user` may read the post with this id as a parent (true when there is none). */
  async canReadParent(parentId: number | null, user: User, cache?: Map<number, boolean>): Promise<boolean> {
    if (parentId === null || readsEverything(user)) return true;
    const known = cache?.get(parentId);
    if (known !== undefined) return known;
    const parent = await this.content.getPost(parentId);
    const readable = !parent || canReadPost(parent, user);
    cache?.set(parentId, readable);
    return readable;
  }

  canRead(attachment: Post, user: User, cache?: Map<number, boolean>): Promise<boolean> {
    return this.canReadParent(attachment.parent_id, user, cache);
  }
}
