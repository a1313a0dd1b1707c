/**
 * The media library: an attachment is a post of type `attachment` whose meta names its
 * blob. Writes are ordered so a crash leaves no attachment without its bytes: an upload
 * stores the blob before the post (a crash in between leaves unreferenced bytes, never a
 * broken attachment); a delete marks the post `trash` first, removes the blob, then the
 * post, and `repair()` (at boot) finishes any delete a crash interrupted.
 */
import type { ContentStore, Post } from '../content/model.js';
import type { Logger } from '../kernel/logger.js';
import type { BlobBucket, BlobInfo } from '../store/blob-port.js';
import { ATTACHMENT, mediaMeta, type MediaMeta } from './attachment.js';
import { imageSize } from './image-size.js';
import { readHead } from '../kernel/upload-sniff.js';

export interface NewAttachment {
  title?: string;
  alt_text?: string;
  caption?: string;
  description?: string;
  parent_id?: number | null;
  author_id: number | null;
}

export interface AttachmentPatch {
  title?: string;
  alt_text?: string;
  caption?: string;
  description?: string;
  parent_id?: number | null;
}

const HEAD_BYTES = 64 * 1024;

export class MediaLibrary {
  constructor(
    readonly content: ContentStore,
    readonly bucket: BlobBucket,
    private readonly log: Logger,
  ) {}

  /** The attachment with this id (null when there is none, or its delete is under way). */
  async get(id: number): Promise<Post | null> {
    const post = await this.content.getPost(id);
    return post && post.post_type === ATTACHMENT && post.status !== 'trash' ? post : null;
  }

  /** A post for a blob already stored; the blob is deleted when the post cannot be written. */
  async create(blob: BlobInfo, input: NewAttachment): Promise<Post> {
    try {
      const kind = blob.content_type.split('/')[0] || 'application';
      const meta: MediaMeta = {
        blob_id: blob.id,
        mime_type: blob.content_type,
        media_kind: kind,
        filesize: blob.size,
        filename: blob.filename,
        sha256: blob.sha256,
        alt_text: input.alt_text ?? '',
      };
      const size = kind === 'image' ? await this.dimensions(blob) : null;
      if (size) Object.assign(meta, size);
      const dot = blob.filename.lastIndexOf('.');
      const title = input.title?.trim() || (dot > 0 ? blob.filename.slice(0, dot) : blob.filename);
      return await this.content.createPost({
        post_type: ATTACHMENT,
        status: 'publish',
        title,
        content: input.description ?? '',
        excerpt: input.caption ?? '',
        meta: meta as unknown as Record<string, unknown>,
        author_id: input.author_id,
        parent_id: input.parent_id ?? null,
      });
    } catch (error) {
      await this.bucket.delete(blob.id).catch(() => undefined);
      throw error;
    }
  }

  async update(post: Post, patch: AttachmentPatch): Promise<Post> {
    return this.content.updatePost(post.post_id, {
      ...(patch.title !== undefined ? { title: patch.title } : {}),
      ...(patch.caption !== undefined ? { excerpt: patch.caption } : {}),
      ...(patch.description !== undefined ? { content: patch.description } : {}),
      ...(patch.parent_id !== undefined ? { parent_id: patch.parent_id } : {}),
      ...(patch.alt_text !== undefined ? { meta: { alt_text: patch.alt_text } } : {}),
    });
  }

  /** Trash mark, blob, post: whichever step a crash stops at, `repair` finishes. */
  async remove(post: Post): Promise<void> {
    await this.content.updatePost(post.post_id, { status: 'trash' });
    await this.bucket.delete(mediaMeta(post).blob_id);
    await this.content.deletePost(post.post_id);
  }

  /** Finishes deletes a crash interrupted (attachments left in `trash`). */
  async repair(): Promise<number> {
    let repaired = 0;
    for (;;) {
      const { items } = await this.content.findPosts({ post_type: ATTACHMENT, status: 'trash', per_page: 100 });
      if (items.length === 0) return repaired;
      for (const post of items) {
        await this.bucket.delete(mediaMeta(post).blob_id);
        await this.content.deletePost(post.post_id);
        repaired++;
      }
      this.log.info({ repaired }, 'Finished interrupted media deletes');
    }
  }

  private async dimensions(blob: BlobInfo): Promise<{ width: number; height: number } | null> {
    if (!['image/png', 'image/gif', 'image/jpeg'].includes(blob.content_type)) return null;
    const stream = await this.bucket.open(blob.id);
    if (!stream) return null;
    return imageSize(await readHead(stream, HEAD_BYTES), blob.content_type);
  }
}
