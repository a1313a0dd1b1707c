/**
 * What the media routes share at run time: the library, the site's URLs and the checks
 * that read an attachment or its parent post as the caller. Built once per surface.
 */
import { canEditPost } from '../../content/post-caps.js';
import type { Post } from '../../content/model.js';
import type { Principal } from '../../kernel/principal.js';
import type { HostInfo } from '../../kernel/plugin.js';
import type { UploadTypes } from '../../kernel/upload.js';
import { AttachmentAccess } from '../attachment-access.js';
import type { MediaLibrary } from '../library.js';
import { apiError } from '../../errors/catalogue.js';
import { forbidden, invalidId } from './shared.js';

/** Read at each upload, so a settings change applies at once. */
export interface UploadLimits {
  maxBytes: () => number;
  allowedTypes: () => UploadTypes;
}

export interface MediaContext {
  library: MediaLibrary;
  info: HostInfo;
  limits: UploadLimits;
  access: AttachmentAccess;
  site(): string;
  /** An attachment's own wp/v2 URL. */
  self(id: number): string;
  /** The attachment with this id, if the caller may read it (401/403 as WordPress otherwise). */
  readable(id: number, user: Principal | null): Promise<Post>;
  /** WordPress: attaching media to a post needs the right to edit that post. */
  checkParent(parent: number | null | undefined, user: Principal | null): Promise<void>;
}

export function mediaContext(library: MediaLibrary, info: HostInfo, limits: UploadLimits): MediaContext {
  const site = () => info.publicUrl();
  const access = new AttachmentAccess(library.content);
  return {
    library,
    info,
    limits,
    access,
    site,
    self: (id) => `${site()}${info.apiPrefix}/wp/v2/media/${id}`,
    async readable(id, user) {
      const post = await library.get(id);
      if (!post) throw invalidId();
      if (!(await access.canRead(post, user))) throw forbidden(user);
      return post;
    },
    async checkParent(parent, user) {
      if (parent === undefined || parent === null) return;
      const post = await library.content.getPost(parent);
      if (!post || post.status === 'trash')
        throw apiError('rest_post_invalid_id', {
          message: `The parent post ${parent} does not exist.`,
          status: 400,
          data: { params: { post: 'no such post' } },
        });
      if (!canEditPost(post, user))
        throw apiError('rest_cannot_edit', { message: 'Sorry, you are not allowed to upload media to this post.', user });
    },
  };
}
